import { TaskState, type StreamResponse, type Task } from '@a2a-js/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionIdFor } from '../../src/a2a/executor.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/index.js';
import { clientFor, createGate, sendRequest, startServer, tempDbPath, textOf, type TestServer } from './fixtures.js';
import { killed, useServerProcesses } from './serverProcess.js';
import { assistant } from './syndicates.js';

// A real process serving a task is killed mid-turn; a new server on the same database must not
// leave that task working forever, and the conversation must go on.

const startChild = useServerProcesses();
let server: TestServer | undefined;
let watcher: SqliteStore | undefined;

afterEach(async () => {
  await server?.stop();
  await watcher?.close();
  server = undefined;
  watcher = undefined;
});

/** Starts a turn that never ends on the server at `url`; resolves with its task once it is working. */
async function startEndlessTask(url: string): Promise<Task> {
  const client = await clientFor(url, 'JSONRPC');
  const earlier = (await client.sendMessage(sendRequest('hello'))) as { contextId: string };
  const seen: StreamResponse[] = [];
  for await (const event of client.sendMessageStream(sendRequest('please wait', { contextId: earlier.contextId }))) {
    seen.push(event);
    if (event.payload?.$case === 'statusUpdate' && textOf(event.payload.value.status?.message?.parts) === 'Using gate') break;
  }
  const first = seen[0]?.payload;
  if (first?.$case !== 'task') throw new Error('the stream did not start with the task');
  return first.value;
}

/** Resolves once the task's working state is in the tasks table, where another process reads it. */
async function storedWorking(dbPath: string, task: Task): Promise<void> {
  watcher = openSqliteStore(dbPath);
  const store = watcher;
  await vi.waitFor(async () => expect((await store.tasks.get('assistant', 'local', task.id))?.state).toBe('TASK_STATE_WORKING'), { timeout: 10_000 });
}

describe('two servers on one database', () => {
  it('leaves a task the other, live server is running alone', async () => {
    const dbPath = tempDbPath();
    const first = await startChild(dbPath);
    const task = await startEndlessTask(first.url);
    await storedWorking(dbPath, task);

    const second = await startChild(dbPath);
    const seenFromSecond = await (await clientFor(second.url, 'JSONRPC')).getTask({ tenant: '', id: task.id });

    expect(second.interrupted).toBe(0);
    expect(seenFromSecond.status?.state).toBe(TaskState.TASK_STATE_WORKING);
  });

  it('marks failed a dead server\'s running task once its lease expires', async () => {
    const dbPath = tempDbPath();
    const first = await startChild(dbPath, { leaseMs: 600 });
    const task = await startEndlessTask(first.url);
    await storedWorking(dbPath, task);

    await killed(first.proc);
    server = await startServer(assistant(createGate().tool), { dbPath, leaseMs: 600 });
    const client = await clientFor(server.url, 'JSONRPC');

    await vi.waitFor(async () => expect((await client.getTask({ tenant: '', id: task.id })).status?.state).toBe(TaskState.TASK_STATE_FAILED), { timeout: 10_000 });
    expect(textOf((await client.getTask({ tenant: '', id: task.id })).status?.message?.parts)).toContain('interrupted by restart');
  });
});

describe('a server restarted with a task in flight', () => {
  it('marks the task failed as interrupted at once when the server restarts on its address, and the conversation continues', async () => {
    const dbPath = tempDbPath();
    const first = await startChild(dbPath);
    const task = await startEndlessTask(first.url);

    await killed(first.proc);
    // Its address, so its lease name: the lease it left is known to be dead without waiting for it to expire.
    server = await startServer(assistant(createGate().tool), { dbPath, port: Number(new URL(first.url).port) });
    const client = await clientFor(server.url, 'JSONRPC');
    const after = await client.getTask({ tenant: '', id: task.id });
    await client.sendMessage(sendRequest('are you back?', { contextId: task.contextId }));

    expect(server.interruptedTasks).toBe(1);
    expect(after.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(textOf(after.status?.message?.parts)).toContain('interrupted by restart');
    const listed = await client.listTasks({ tenant: '', contextId: task.contextId, status: TaskState.TASK_STATE_UNSPECIFIED, pageSize: 10, pageToken: '', statusTimestampAfter: undefined });
    expect(listed.tasks).toHaveLength(3);
    const sessionId = sessionIdFor('assistant', { principal: 'local', userId: undefined }, task.contextId);
    const inputs = (await server.store.readEvents(sessionId)).flatMap(({ event }) => (event.type === 'turn-start' ? [event.input] : []));
    // The interrupted turn's message was stored before its first model call; nothing after it was.
    expect(inputs).toEqual(['hello', 'please wait', 'are you back?']);
  });

  it('resumes a task that was waiting for input, with its history, on the next server', async () => {
    const dbPath = tempDbPath();
    const before = await startServer(assistant(createGate().tool), { dbPath });
    const asked = (await (await clientFor(before.url, 'JSONRPC')).sendMessage(sendRequest('plan our offsite'))) as { id: string; contextId: string };
    await before.stop();

    server = await startServer(assistant(createGate().tool), { dbPath });
    const client = await clientFor(server.url, 'JSONRPC');
    const resumed = (await client.sendMessage(sendRequest('Lisbon', { taskId: asked.id, contextId: asked.contextId }))) as Task;

    expect(server.interruptedTasks).toBe(0);
    expect(resumed.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(resumed.history.map((message) => textOf(message.parts))).toEqual(expect.arrayContaining(['plan our offsite', 'Lisbon']));
    expect(resumed.artifacts.map((artifact) => textOf(artifact.parts)).join('')).toBe('Lisbon booked.');
  });
});
