import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTaskScheduler, type TaskScheduler } from '../src/scheduler/tasks/index.js';
import { openPostgresStore } from '../src/store/postgres/index.js';
import { MAX_ACTIVE_TASKS, type NewTask } from '../src/store/schedules.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import type { Store } from '../src/store/store.js';
import { missingPostgresTools, startPostgresCluster } from '../test/store/postgresServer.js';
import { percentile, report } from './stats.js';

// 1,000 one-time tasks due in the same second (10 syndicates of 100, the most one may have):
// the time from that second until every firing was dispatched (its turn started), and each
// firing's delay (turn start - scheduled time), on SQLite (one scheduler) and on PostgreSQL with two
// schedulers on two connection pools (two processes' worth of claims racing; in one Node process).
// The turn itself is a no-op: this measures the scheduler and the store, not a model.

const TASKS = 1_000;
const SYNDICATES = Array.from({ length: TASKS / MAX_ACTIVE_TASKS }, (_, i) => `bench-${i}`);

async function addTasks(store: Store, at: number): Promise<void> {
  for (let i = 0; i < TASKS; i++) {
    const task: NewTask = {
      id: randomUUID(), syndicate: SYNDICATES[i % SYNDICATES.length]!, name: `t${i}`, cron: null, timezone: 'UTC', at, message: 'Tick.', session: 'new',
      owner: { kind: 'user', id: 'bench' }, runAs: 'bench', requestedBy: null, origin: 'runtime', catchUp: 'none', createdAt: Date.now(),
    };
    const added = await store.schedules.add(task);
    if (!added.ok) throw new Error(`could not add task ${i}: ${added.reason}`);
  }
}

async function dispatch(stores: readonly Store[], label: string): Promise<void> {
  // The next whole second at least 2 s ahead, so adding the tasks does not overlap it.
  const at = Math.ceil((Date.now() + 2_000) / 1_000) * 1_000;
  await addTasks(stores[0]!, at);
  const delays: number[] = [];
  let allDispatched!: () => void;
  const done = new Promise<void>((resolve) => (allDispatched = resolve));
  const schedulers: TaskScheduler[] = stores.map((store, index) =>
    createTaskScheduler({
      store: store.schedules,
      runner: `bench-${index}`,
      syndicates: () => SYNDICATES,
      runTurn: async () => {
        delays.push(Date.now() - at);
        if (delays.length === TASKS) allDispatched();
        return { status: 'completed', output: 'ok' };
      },
      warn: (message) => console.error(message),
    }),
  );
  for (const scheduler of schedulers) scheduler.start();
  await done;
  await Promise.all(schedulers.map((scheduler) => scheduler.close()));
  const runs = await stores[0]!.schedules.runs({ limit: 10 * TASKS });
  const sorted = [...delays].sort((a, b) => a - b);
  report(label, { tasks: TASKS, runs: runs.length, allDispatchedMs: sorted[sorted.length - 1]!, p50DelayMs: percentile(sorted, 50), p99DelayMs: percentile(sorted, 99) });
}

export async function benchSchedulerDispatch(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'syndicate-bench-sched-'));
  try {
    const sqlite = await openSqliteStore(join(dir, 'sched.db'));
    try {
      await dispatch([sqlite], 'scheduler sqlite x1');
    } finally {
      await sqlite.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const missing = missingPostgresTools();
  if (missing !== undefined) {
    console.log(`scheduler postgres: skipped (${missing})`);
    return;
  }
  const cluster = await startPostgresCluster();
  try {
    const url = await cluster.createDatabase();
    const stores = [await openPostgresStore(url), await openPostgresStore(url)];
    try {
      await dispatch(stores, 'scheduler postgres x2');
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  } finally {
    await cluster.stop();
  }
}
