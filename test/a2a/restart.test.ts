import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TaskState, type StreamResponse, type Task } from '@a2a-js/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionIdFor } from '../../src/a2a/executor.js';
import { clientFor, createGate, sendRequest, startServer, tempDbPath, textOf, type TestServer } from './fixtures.js';
import { assistant } from './syndicates.js';

// A real process serving a task is killed mid-turn; a new server on the same database must not
// leave that task working forever, and the conversation must go on.

const child = fileURLToPath(new URL('./fixtures/serve-until-killed.mjs', import.meta.url));
const built = fileURLToPath(new URL('../../dist/a2a/serveA2a.js', import.meta.url));

let proc: ChildProcess | undefined;
let server: TestServer | undefined;

afterEach(async () => {
  proc?.kill('SIGKILL');
  await server?.stop();
  proc = undefined;
  server = undefined;
});

function startChild(dbPath: string): Promise<string> {
  return new Promise((resolve, reject) => {
    proc = spawn(process.execPath, [child, dbPath], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    proc.stderr!.on('data', (chunk) => (stderr += chunk));
    proc.stdout!.on('data', (chunk: Buffer) => {
      const match = /LISTENING (\S+)/.exec(chunk.toString());
      if (match) resolve(match[1]!);
    });
    proc.on('exit', () => reject(new Error(`the server process ended before listening: ${stderr}`)));
  });
}

function killed(process: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    process.once('exit', () => resolve());
    process.kill('SIGKILL');
  });
}

describe('a server restarted with a task in flight', () => {
  it('marks the task failed as interrupted, and the conversation continues on the new server', async () => {
    if (!existsSync(built)) throw new Error('dist/ is missing: run `npm run build` (npm test does) before this test');
    const dbPath = tempDbPath();
    const url = await startChild(dbPath);
    const first = await clientFor(url, 'JSONRPC');
    const earlier = (await first.sendMessage(sendRequest('hello'))) as { contextId: string };
    const stream = first.sendMessageStream(sendRequest('please wait', { contextId: earlier.contextId }));
    const seen: StreamResponse[] = [];
    for await (const event of stream) {
      seen.push(event);
      if (event.payload?.$case === 'statusUpdate' && textOf(event.payload.value.status?.message?.parts) === 'Using gate') break;
    }
    const task = seen[0]?.payload?.$case === 'task' ? seen[0].payload.value : undefined;

    await killed(proc!);
    server = await startServer(assistant(createGate().tool), { dbPath });
    const client = await clientFor(server.url, 'JSONRPC');
    const after = await client.getTask({ tenant: '', id: task!.id });
    await client.sendMessage(sendRequest('are you back?', { contextId: task!.contextId }));

    expect(server.interruptedTasks).toBe(1);
    expect(after.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(textOf(after.status?.message?.parts)).toContain('interrupted by restart');
    const listed = await client.listTasks({ tenant: '', contextId: task!.contextId, status: TaskState.TASK_STATE_UNSPECIFIED, pageSize: 10, pageToken: '', statusTimestampAfter: undefined });
    expect(listed.tasks).toHaveLength(3);
    const sessionId = sessionIdFor('assistant', { principal: 'local', userId: undefined }, task!.contextId);
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
