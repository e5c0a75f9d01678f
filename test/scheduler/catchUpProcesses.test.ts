import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/openStore.js';
import type { Store } from '../../src/store/store.js';
import { killed } from '../a2a/serverProcess.js';
import { POSTGRES_TESTS, usePostgresCluster } from '../store/postgresCluster.js';
import { scratchDir } from '../support/scratchDir.js';
import { AUTH, useTaskServers, within } from './taskServers.js';

// A real server process takes two one-time tasks and is killed before their instant; a second
// process starts once the instant is older than the grace (a second here, a minute in serve), so
// the firing was missed while no server ran. The restarted server follows each task's catch_up:
// `none` records the firing skipped, `last` runs it late. The same on SQLite and on PostgreSQL.

const cluster = POSTGRES_TESTS ? usePostgresCluster() : undefined;
const TIMINGS = { leaseMs: 30_000, graceMs: 1_000 };
const startServer = useTaskServers();
let reader: Store | undefined;
afterEach(async () => {
  await reader?.close();
  reader = undefined;
});

async function addTask(api: string, name: string, at: number, catchUp: 'none' | 'last'): Promise<string> {
  const response = await fetch(`${api}/tasks`, { method: 'POST', headers: AUTH, body: JSON.stringify({ syndicate: 'desk', name, at: new Date(at).toISOString(), message: 'Report.', catchUp }) });
  expect(response.status).toBe(201);
  return ((await response.json()) as { task: { id: string } }).task.id;
}

async function followsCatchUp(db: string): Promise<void> {
  const first = await startServer(db, TIMINGS);
  // Far enough ahead that a loaded machine adds both tasks and kills the server before it.
  const at = Date.now() + 6_000;
  const skippedTask = await addTask(first.api, 'missed-none', at, 'none');
  const lateTask = await addTask(first.api, 'missed-last', at, 'last');
  await killed(first.proc);
  expect(Date.now(), 'the first server was killed before the instant').toBeLessThan(at);
  // Time has to pass here, not work: the instant must be older than the grace when the next server looks.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, at + TIMINGS.graceMs + 1_000 - Date.now())));

  await startServer(db, TIMINGS);

  reader = await openStore(db);
  const store = reader;
  const late = await within(60_000, 'the late run ends', async () => (await store.schedules.runs({ taskId: lateTask, limit: 10 })).find((run) => run.status !== 'running'));
  expect(late).toMatchObject({ scheduledFor: at, status: 'answered' });
  expect(await store.schedules.runs({ taskId: skippedTask, limit: 10 })).toEqual([
    expect.objectContaining({ scheduledFor: at, status: 'skipped', detail: `the firing at ${new Date(at).toISOString()} was missed while no server ran (catch_up: none)` }),
  ]);
  expect(await store.schedules.runs({ taskId: lateTask, limit: 10 })).toHaveLength(1);
}

describe('a server restarted after a missed firing', () => {
  it('records it skipped with catch_up: none and runs it late with catch_up: last, on SQLite', async () => {
    await followsCatchUp(join(scratchDir('catch-up'), 'tasks.db'));
  }, 120_000);

  it.runIf(POSTGRES_TESTS)('records it skipped with catch_up: none and runs it late with catch_up: last, on PostgreSQL', async () => {
    await followsCatchUp(await cluster!().createDatabase());
  }, 120_000);
});
