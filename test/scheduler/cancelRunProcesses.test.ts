import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/openStore.js';
import type { TaskRun } from '../../src/store/schedules.js';
import type { Store } from '../../src/store/store.js';
import { POSTGRES_TESTS, usePostgresCluster } from '../store/postgresCluster.js';
import { AUTH, useTaskServers, within, type TaskServer } from './taskServers.js';

// Two real server processes on one PostgreSQL (test/server/fixtures/serve-tasks-process.mjs), each
// with serve's task scheduler: a one-time task's run holds in whichever process the shared queue
// gave it to, and a cancel sent to the OTHER process (removing the task, or cancelling the run's
// session) stops that run's turn at once (a notification), long before its next heartbeat (a third
// of a one-minute lease); the run is recorded interrupted with what stopped it.

const cluster = POSTGRES_TESTS ? usePostgresCluster() : undefined;
const LEASE_MS = 60_000;
// Well under the heartbeat (LEASE_MS / 3): only the notification can stop the turn this soon; generous for a loaded machine.
const STOPS_WITHIN_MS = 8_000;

const serverProcess = useTaskServers();
let reader: Store | undefined;
afterEach(async () => {
  await reader?.close();
  reader = undefined;
});

/** Two servers, a task that holds in one of them; resolves to the one running it, the other, and the run. */
async function holdingRun(): Promise<{ runner: TaskServer; other: TaskServer; run: TaskRun; taskId: string; store: Store }> {
  const url = await cluster!().createDatabase();
  const servers = await Promise.all([serverProcess(url, { leaseMs: LEASE_MS }), serverProcess(url, { leaseMs: LEASE_MS })]);
  const at = new Date(Date.now() + 2_000).toISOString();
  const created = await fetch(`${servers[0]!.api}/tasks`, { method: 'POST', headers: AUTH, body: JSON.stringify({ syndicate: 'desk', name: 'hold', at, message: 'hold on' }) });
  expect(created.status).toBe(201);
  const { task } = (await created.json()) as { task: { id: string } };
  reader = await openStore(url);
  const store = reader;
  const run = await within(60_000, 'a server runs the task', async () => (await store.schedules.runs({ taskId: task.id, limit: 1 })).find((found) => found.status === 'running'));
  const runner = servers.find((server) => run.runner!.includes(`:${server.proc.pid}:`))!;
  // The turn is under way (its start is committed before its model is called) before the cancel is sent.
  await within(60_000, "the run's turn starts", async () => ((await store.readEvents(run.sessionId!)).some(({ event }) => event.type === 'turn-start') ? true : undefined));
  return { runner, other: servers.find((server) => server !== runner)!, run, taskId: task.id, store };
}

async function turnEnd(store: Store, sessionId: string) {
  return within(STOPS_WITHIN_MS, "the run's turn ends", async () => (await store.readEvents(sessionId)).map(({ event }) => event).find((event) => event.type === 'turn-end'));
}

describe.runIf(POSTGRES_TESTS)('cancelling a scheduled run that runs in another server process', () => {
  it('removing the task through the other process stops the run at once, recorded interrupted', async () => {
    const { runner, other, run, taskId, store } = await holdingRun();

    const removed = await fetch(`${other.api}/tasks/${encodeURIComponent(taskId)}`, { method: 'DELETE', headers: AUTH });

    expect(removed.status).toBe(204);
    expect(await turnEnd(store, run.sessionId!)).toMatchObject({ status: 'cancelled' });
    expect(await store.schedules.getRun(run.id)).toMatchObject({ status: 'interrupted', detail: expect.stringContaining("its task 'hold' was removed by alice through the API") });
    expect(runner.proc.exitCode).toBeNull();
    expect(runner.stderr()).not.toMatch(/lost its lease/);
  }, 120_000);

  it("cancelling the run's session through the other process stops the run at once, recorded interrupted", async () => {
    const { other, run, store } = await holdingRun();

    const cancel = await fetch(`${other.api}/sessions/${encodeURIComponent(run.sessionId!)}/cancel`, { method: 'POST', headers: AUTH });

    expect(await cancel.json()).toEqual({ cancelled: true });
    expect(await turnEnd(store, run.sessionId!)).toMatchObject({ status: 'cancelled' });
    expect(await store.schedules.getRun(run.id)).toMatchObject({ status: 'interrupted', detail: "cancelled: alice cancelled the run's session" });
  }, 120_000);
});
