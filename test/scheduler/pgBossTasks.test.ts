import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { sharedFirings, TASK_FIRINGS_QUEUE } from '../../src/scheduler/pgBoss/taskFirings.js';
import { startWorkQueue, type WorkQueue } from '../../src/scheduler/pgBoss/workQueue.js';
import { createTaskScheduler, runSessionId, type TaskScheduler } from '../../src/scheduler/tasks/index.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import type { NewTask } from '../../src/store/schedules.js';
import type { Store } from '../../src/store/store.js';
import { POSTGRES_TESTS, usePostgresDatabase } from '../store/postgresCluster.js';
import { eventually } from './jobsFixtures.js';

// The shared queue's retry policy (scheduler/pgBoss/taskFirings.ts): a process takes a firing's
// job, claims its run and dies. Another process's scheduler marks the run interrupted once its
// lease expires; once the job expires too, pg-boss offers it again, and that process runs the
// firing again in the same run record.

const database = POSTGRES_TESTS ? usePostgresDatabase() : undefined;
const LEASE_MS = 200;
let store: Store | undefined;
let scheduler: TaskScheduler | undefined;
const queues: WorkQueue[] = [];

afterEach(async () => {
  await scheduler?.close();
  scheduler = undefined;
  await Promise.all(queues.splice(0).map((queue) => queue.stop()));
  await store?.close();
  store = undefined;
});

const fail = (message: string): never => expect.fail(message);

function oneTimeTask(at: number): NewTask {
  return {
    id: randomUUID(), syndicate: 'team', name: `once-${randomUUID().slice(0, 8)}`, cron: null, timezone: 'UTC', at, message: 'Tick.', session: 'new',
    owner: { kind: 'user', id: 'ana' }, runAs: 'ana', requestedBy: null, origin: 'runtime', catchUp: 'none', createdAt: at - 1_000,
  };
}

describe.runIf(POSTGRES_TESTS)('scheduled firings on the shared queue (pg-boss)', () => {
  it('runs a firing again, in the same run record, after the process that took it died', async () => {
    const url = database!();
    store = await openPostgresStore(url);
    const task = oneTimeTask(Date.now());
    await store.schedules.add(task);
    const firing = { taskId: task.id, scheduledFor: task.at! };
    const sessionId = runSessionId((await store.schedules.get(task.id))!, firing.scheduledFor);

    // The process that dies: it sends the firing, takes its job, claims the run, and stops without a word.
    const dead = await startWorkQueue(url, fail);
    await (await sharedFirings(dead, fail, { expireInSeconds: 1, retryLimit: 3 })).send(firing);
    expect(await dead.boss.fetch(TASK_FIRINGS_QUEUE)).toHaveLength(1);
    const claimed = await store.schedules.claim({ ...firing, runner: 'dead', now: Date.now(), leaseMs: LEASE_MS, sessionId });
    await dead.stop();
    const runId = claimed.outcome === 'claimed' ? claimed.run.id : fail('the dead process could not claim the firing');

    const live = await startWorkQueue(url, fail);
    queues.push(live);
    const firings = await sharedFirings(live, fail);
    scheduler = createTaskScheduler({
      store: store.schedules, runner: 'live', syndicates: () => ['team'], queue: firings, leaseMs: LEASE_MS, warn: fail,
      runTurn: async () => ({ status: 'completed', output: 'Ran again.' }),
    });
    firings.work(scheduler.take, () => undefined);
    await scheduler.start();
    await eventually(async () => (await store!.schedules.getRun(runId))?.status === 'interrupted', 'the live process marks the run interrupted');
    await sleep(1_100);
    // What pg-boss's maintenance does every 30 s: the job taken a second ago expires, and is offered again.
    await live.boss.expire();
    await eventually(async () => (await store!.schedules.getRun(runId))?.status === 'answered', 'the firing runs again');

    expect(await store.schedules.runs({ taskId: task.id, limit: 10 })).toEqual([expect.objectContaining({ id: runId, status: 'answered', answer: 'Ran again.', runner: null })]);
    await firings.stop();
  }, 30_000);
});
