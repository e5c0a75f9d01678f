import { join } from 'node:path';
import { TaskState, type StreamResponse, type Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Caller } from '../../src/a2a/caller.js';
import { sessionIdFor } from '../../src/a2a/executor.js';
import { openStore } from '../../src/store/openStore.js';
import type { Store } from '../../src/store/store.js';
import { scratchDir } from '../support/scratchDir.js';
import { POSTGRES_TESTS, usePostgresCluster } from '../store/postgresCluster.js';
import { clientFor, sendRequest, textOf } from './fixtures.js';
import { killed, useServerProcesses, type ServerProcess } from './serverProcess.js';

// Several real serve-a2a processes on one database (fixtures/serve-a2a-process.mjs): one
// conversation goes on across them, each sees the other's tasks, and a cancel that reaches one
// stops the turn the other runs. On PostgreSQL the cancel travels as a NOTIFY; on SQLite, as a row
// each server polls.

const startServer = useServerProcesses();
const cluster = POSTGRES_TESTS ? usePostgresCluster() : undefined;
const LOCAL: Caller = { principal: 'local', userId: undefined };

let reader: Store | undefined;
afterEach(async () => {
  await reader?.close();
  reader = undefined;
});

interface StoreKind {
  name: string;
  run: boolean;
  /** A fresh, empty store: a SQLite path or a postgres:// URL. */
  fresh(): Promise<string>;
}

const KINDS: readonly StoreKind[] = [
  { name: 'PostgreSQL', run: POSTGRES_TESTS, fresh: () => cluster!().createDatabase() },
  { name: 'SQLite', run: true, fresh: async () => join(scratchDir('shared-db'), 'shared.db') },
];

async function answer(client: Client, text: string, contextId?: string): Promise<{ task: Task; text: string }> {
  const task = (await client.sendMessage(sendRequest(text, { contextId }))) as Task;
  return { task, text: task.artifacts.map((artifact) => textOf(artifact.parts)).join('') };
}

/** A streamed turn that waits at the gate until cancelled: its task, once working, and the rest of its stream. */
async function startWaitingTurn(client: Client, contextId: string): Promise<{ task: Task; rest: AsyncIterator<StreamResponse> }> {
  const stream = client.sendMessageStream(sendRequest('please wait', { contextId }))[Symbol.asyncIterator]();
  let task: Task | undefined;
  for (;;) {
    const { value, done } = await stream.next();
    if (done) throw new Error('the stream ended before the turn reached the gate');
    if (value.payload?.$case === 'task') task = value.payload.value;
    if (value.payload?.$case === 'statusUpdate' && textOf(value.payload.value.status?.message?.parts) === 'Using gate') break;
  }
  if (task === undefined) throw new Error('the stream did not start with the task');
  return { task, rest: stream };
}

async function lastStateOf(rest: AsyncIterator<StreamResponse>): Promise<TaskState | undefined> {
  let state: TaskState | undefined;
  for (let next = await rest.next(); !next.done; next = await rest.next()) {
    if (next.value.payload?.$case === 'statusUpdate') state = next.value.payload.value.status?.state;
  }
  return state;
}

async function stateOn(client: Client, id: string): Promise<TaskState | undefined> {
  return (await client.getTask({ tenant: '', id })).status?.state;
}

async function twoServers(store: string): Promise<[ServerProcess, ServerProcess, Client, Client]> {
  const [a, b] = await Promise.all([startServer(store), startServer(store)]);
  return [a, b, await clientFor(a.url, 'JSONRPC'), await clientFor(b.url, 'JSONRPC')];
}

describe.runIf(POSTGRES_TESTS)('two serve-a2a processes on one PostgreSQL store', () => {
  it('continue one conversation alternately, each answering from the history the other stored', async () => {
    const [, , onA, onB] = await twoServers(await cluster!().createDatabase());

    const first = await answer(onA, 'my name is Ada');
    const second = await answer(onB, 'what is my name?', first.task.contextId);
    const third = await answer(onA, 'and where am I?', first.task.contextId);

    expect(first.text).toBe('Heard: my name is Ada');
    expect(second.text).toBe('Heard: my name is Ada | what is my name?');
    expect(third.text).toBe('Heard: my name is Ada | what is my name? | and where am I?');
  });

  it("each find the other's tasks, and the session holds the turns of both", async () => {
    const store = await cluster!().createDatabase();
    const [, , onA, onB] = await twoServers(store);
    const fromA = await answer(onA, 'hello');
    const fromB = await answer(onB, 'hello again', fromA.task.contextId);

    const seenOnB = await onB.getTask({ tenant: '', id: fromA.task.id });
    const listedOnA = await onA.listTasks({ tenant: '', contextId: fromA.task.contextId, status: TaskState.TASK_STATE_UNSPECIFIED, pageSize: 10, pageToken: '', statusTimestampAfter: undefined });
    reader = await openStore(store);
    const inputs = (await reader.readEvents(sessionIdFor('assistant', LOCAL, fromA.task.contextId))).flatMap(({ event }) => (event.type === 'turn-start' ? [event.input] : []));

    expect(seenOnB.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(listedOnA.tasks.map((task) => task.id).sort()).toEqual([fromA.task.id, fromB.task.id].sort());
    expect(inputs).toEqual(['hello', 'hello again']);
  });
});

// SQLite too: the cancel's row is polled, and the canceller waits for the runner's canceled state
// to reach the tasks table. (A conversation continued across processes is PostgreSQL's: on SQLite
// another process's acknowledged events reach the table only at its ingest.)
for (const kind of KINDS) {
  describe.runIf(kind.run)(`two serve-a2a processes on one ${kind.name} store`, () => {
    it('stop a turn running on one when the cancel reaches the other: the turn ends cancelled, and the task is canceled on both', async () => {
      const store = await kind.fresh();
      const [, , onA, onB] = await twoServers(store);
      const { task: conversation } = await answer(onA, 'hello');
      const { task, rest } = await startWaitingTurn(onA, conversation.contextId);
      // On SQLite another process's writes reach the tables at its ingest (tens of ms, the Store contract): B knows the task once it is in.
      await vi.waitFor(() => onB.getTask({ tenant: '', id: task.id }), { timeout: 10_000, interval: 20 });

      const canceled = await onB.cancelTask({ tenant: '', id: task.id, metadata: undefined });

      expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
      expect(await lastStateOf(rest)).toBe(TaskState.TASK_STATE_CANCELED);
      expect(await stateOn(onA, task.id)).toBe(TaskState.TASK_STATE_CANCELED);
      expect(await stateOn(onB, task.id)).toBe(TaskState.TASK_STATE_CANCELED);
      reader = await openStore(store);
      const ends = (await reader.readEvents(sessionIdFor('assistant', LOCAL, conversation.contextId))).flatMap(({ event }) => (event.type === 'turn-end' ? [event.status] : []));
      expect(ends).toEqual(['completed', 'cancelled']);
    });
  });
}

describe.runIf(POSTGRES_TESTS)('a serve-a2a process restarted on a PostgreSQL store another process shares', () => {
  it("marks failed only its own interrupted task, and leaves the other's running", async () => {
    const store = await cluster!().createDatabase();
    const [a, , onA, onB] = await twoServers(store);
    const onAsTurn = await startWaitingTurn(onA, (await answer(onA, 'hello')).task.contextId);
    const onBsTurn = await startWaitingTurn(onB, (await answer(onB, 'hello')).task.contextId);

    await killed(a.proc);
    const restarted = await startServer(store, { port: Number(new URL(a.url).port) });
    const onRestarted = await clientFor(restarted.url, 'JSONRPC');

    expect(restarted.interrupted).toBe(1);
    expect(await stateOn(onRestarted, onAsTurn.task.id)).toBe(TaskState.TASK_STATE_FAILED);
    expect(await stateOn(onRestarted, onBsTurn.task.id)).toBe(TaskState.TASK_STATE_WORKING);
    expect(await stateOn(onB, onBsTurn.task.id)).toBe(TaskState.TASK_STATE_WORKING);
  });

  it("marks failed a killed process's running task once its lease expires, from the other process", async () => {
    const store = await cluster!().createDatabase();
    const [a, b] = await Promise.all([startServer(store, { leaseMs: 600 }), startServer(store, { leaseMs: 600 })]);
    const [onA, onB] = [await clientFor(a.url, 'JSONRPC'), await clientFor(b.url, 'JSONRPC')];
    const { task: conversation } = await answer(onA, 'hello');
    const { task } = await startWaitingTurn(onA, conversation.contextId);

    await killed(a.proc);

    await vi.waitFor(async () => expect(await stateOn(onB, task.id)).toBe(TaskState.TASK_STATE_FAILED), { timeout: 10_000 });
    expect(textOf((await onB.getTask({ tenant: '', id: task.id })).status?.message?.parts)).toContain('interrupted by restart');
  });
});
