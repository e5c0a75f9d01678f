import type { Firing, FiringQueue } from '../tasks/scheduler.js';
import { startConsumer, type Consumer } from './consumer.js';
import { jobIdFor, type QueuePolicy, type WorkQueue } from './workQueue.js';

// Scheduled tasks' firings on the shared queue: every process's scheduler sends the due firings of
// its tasks, and every process takes firings from the queue and runs them (TaskScheduler.take).
//
// Retry policy: a firing's job expires FIRING_POLICY.expireInSeconds after a process took it
// (pg-boss 10 has no heartbeat). Then pg-boss offers it again, up to retryLimit times: the process
// that takes it runs the firing again when its run record says `interrupted` by a crash (the run's
// own 30 s lease, renewed while it runs, expired), and does nothing when the run still goes
// elsewhere (its lease is held) or has ended. So a run whose process died is recorded `interrupted`,
// then runs once more and records that run's outcome; a firing whose retries are used up stays
// `interrupted`.

export const TASK_FIRINGS_QUEUE = 'syndicate-task-firings';

export const FIRING_POLICY: QueuePolicy = { expireInSeconds: 60, retryLimit: 3 };

/** Firings one process takes from the queue at once. */
const CONCURRENCY = 16;
/** How often an idle process looks for firings others sent or pg-boss offers again. */
const POLL_MS = 1_000;

/** Names the firing in the queue: its job's id is derived from it. */
export function firingKey(firing: Firing): string {
  return `${firing.taskId}@${new Date(firing.scheduledFor).toISOString()}`;
}

export interface SharedFirings extends FiringQueue {
  /** Takes firings from the queue in this process, running each through `take`. */
  work(take: (firing: Firing) => Promise<void>, track: (work: Promise<void>) => void): void;
  /** Takes no more; resolves once the firings taken have been run and completed. */
  stop(): Promise<void>;
}

export async function sharedFirings(queue: WorkQueue, warn: (message: string) => void): Promise<SharedFirings> {
  await queue.queue(TASK_FIRINGS_QUEUE, FIRING_POLICY);
  let consumer: Consumer | undefined;
  return {
    async send(firing) {
      const key = firingKey(firing);
      // The id makes the send once-per-firing (the queue's primary key); the singleton key names the firing in pg-boss's tables.
      const id = await queue.boss.send(TASK_FIRINGS_QUEUE, firing, { id: jobIdFor(key), singletonKey: key });
      if (id !== null) consumer?.wake();
    },
    work(take, track) {
      consumer ??= startConsumer<Firing>({ boss: queue.boss, queue: TASK_FIRINGS_QUEUE, concurrency: CONCURRENCY, pollMs: POLL_MS, handle: take, warn, track });
    },
    async stop() {
      await consumer?.stop();
    },
  };
}
