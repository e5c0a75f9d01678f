import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTaskScheduler } from '../src/scheduler/tasks/index.js';
import { openPostgresStore } from '../src/store/postgres/index.js';
import { MAX_ACTIVE_TASKS, type NewTask } from '../src/store/schedules.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import type { Store } from '../src/store/store.js';
import { missingPostgresTools, startPostgresCluster } from '../test/store/postgresServer.js';
import { percentile, report } from './stats.js';

// 1,000 one-time tasks due in the same second (10 syndicates of 100, the most one may have):
// the time from that second until every firing was dispatched (its turn started), and each
// firing's delay (turn start - scheduled time), on SQLite (one scheduler, the store's own queue) and
// on PostgreSQL with two real processes (schedulerDispatchWorker.ts, forked), each wired as serve is:
// both send the due firings to the shared queue (pg-boss) and both take firings from it. The turn
// itself is a no-op: this measures the scheduler, the queue and the store, not a model.

const TASKS = 1_000;
const SYNDICATES = Array.from({ length: TASKS / MAX_ACTIVE_TASKS }, (_, i) => `bench-${i}`);

// Tasks are added this far ahead of their instant; adds run a few at a time, as a network store's
// round trips allow.
const LEAD_MS = 5_000;
const ADD_CONCURRENCY = 16;

/**
 * Adds the tasks, all due at the next whole second LEAD_MS ahead; resolves to that instant. Refuses
 * to measure when adding overran it: a task added late would count the time it did not exist yet.
 */
async function addTasks(store: Store): Promise<number> {
  const at = Math.ceil((Date.now() + LEAD_MS) / 1_000) * 1_000;
  let next = 0;
  const adder = async (): Promise<void> => {
    while (next < TASKS) {
      const i = next++;
      const task: NewTask = {
        id: randomUUID(), syndicate: SYNDICATES[i % SYNDICATES.length]!, name: `t${i}`, cron: null, timezone: 'UTC', at, message: 'Tick.', session: 'new',
        owner: { kind: 'user', id: 'bench' }, runAs: 'bench', requestedBy: null, origin: 'runtime', catchUp: 'none', createdAt: Date.now(),
      };
      const added = await store.schedules.add(task);
      if (!added.ok) throw new Error(`could not add task ${i}: ${added.reason}`);
    }
  };
  await Promise.all(Array.from({ length: ADD_CONCURRENCY }, adder));
  if (Date.now() >= at) throw new Error(`adding ${TASKS} tasks overran their instant by ${Date.now() - at} ms (lead ${LEAD_MS} ms): the machine is too loaded to measure dispatch delay; run the bench again`);
  return at;
}

function reportDelays(label: string, delays: readonly number[], extra: Record<string, number>): void {
  const sorted = [...delays].sort((a, b) => a - b);
  report(label, { tasks: TASKS, ...extra, allDispatchedMs: sorted[sorted.length - 1]!, p50DelayMs: percentile(sorted, 50), p99DelayMs: percentile(sorted, 99) });
}

async function dispatchSqlite(store: Store): Promise<void> {
  const at = await addTasks(store);
  const delays: number[] = [];
  let allDispatched!: () => void;
  const done = new Promise<void>((resolve) => (allDispatched = resolve));
  const scheduler = createTaskScheduler({
    store: store.schedules,
    runner: 'bench-0',
    syndicates: () => SYNDICATES,
    runTurn: async () => {
      delays.push(Date.now() - at);
      if (delays.length === TASKS) allDispatched();
      return { status: 'completed', output: 'ok' };
    },
    warn: (message) => console.error(message),
  });
  await scheduler.start();
  await done;
  await scheduler.close();
  const runs = await store.schedules.runs({ limit: 10 * TASKS });
  reportDelays('scheduler sqlite x1', delays, { runs: runs.length });
}

const WORKER = fileURLToPath(new URL('./schedulerDispatchWorker.js', import.meta.url));

interface Started {
  type: 'done';
  /** When each of the worker's turns started (ms since the epoch). */
  started: number[];
}

async function startWorker(url: string, name: string): Promise<{ child: ChildProcess; done: Promise<Started> }> {
  const child = fork(WORKER, [url, name, SYNDICATES.join(',')], { stdio: 'inherit' });
  const messages: Array<(message: unknown) => void> = [];
  child.on('message', (message) => messages.shift()?.(message));
  const next = (): Promise<unknown> => new Promise((resolve, reject) => {
    messages.push(resolve);
    child.once('exit', (code) => reject(new Error(`scheduler worker ${name} exited with ${code}`)));
  });
  await next();
  return { child, done: next() as Promise<Started> };
}

async function dispatchPostgresProcesses(url: string, store: Store): Promise<void> {
  const workers = await Promise.all([0, 1].map((i) => startWorker(url, `bench-p${i}`)));
  const at = await addTasks(store);
  for (;;) {
    const runs = await store.schedules.runs({ limit: 10 * TASKS });
    if (runs.filter((run) => run.status !== 'running').length >= TASKS) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  for (const { child } of workers) child.send('close');
  const results = await Promise.all(workers.map((worker) => worker.done));
  const runs = await store.schedules.runs({ limit: 10 * TASKS });
  const delays = results.flatMap((result) => result.started.map((startedAt) => startedAt - at));
  reportDelays('scheduler postgres 2 processes (pg-boss)', delays, {
    runs: runs.length,
    turns: delays.length,
    turnsProcess0: results[0]!.started.length,
    turnsProcess1: results[1]!.started.length,
  });
}

export async function benchSchedulerDispatch(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'syndicate-bench-sched-'));
  try {
    const sqlite = await openSqliteStore(join(dir, 'sched.db'));
    try {
      await dispatchSqlite(sqlite);
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
    const store = await openPostgresStore(url);
    try {
      await dispatchPostgresProcesses(url, store);
    } finally {
      await store.close();
    }
  } finally {
    await cluster.stop();
  }
}
