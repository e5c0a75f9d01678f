import type { Firing } from '../tasks/scheduler.js';
import { sharedQueue, type SharedQueue } from './sharedQueue.js';
import type { QueuePolicy, WorkQueue } from './workQueue.js';

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

/** Names the firing in the queue: its job's id is derived from it. */
export function firingKey(firing: Firing): string {
  return `${firing.taskId}@${new Date(firing.scheduledFor).toISOString()}`;
}

/**
 * Firings one process runs at once. A firing's job stays taken until its run ends (a crash must
 * leave it to expire and be offered again), so this bounds the process's task runs at once, and how
 * many jobs one fetch, one completion and one read of their tasks carry. At 16, 1,000 firings due
 * in one second took ~270 fetches and ~280 completions across two processes (pg-boss: 0.67 s of
 * server CPU), and the last started 3.5-4.5 s late; at 64, ~125 of each (0.37 s), 2.7-3.3 s late
 * (dispatch bench). SQLite's one process runs every firing it claims at once.
 */
const FIRING_CONCURRENCY = 64;

/** `policy`: the queue's, when this call creates it (tests shorten the expiry). */
export function sharedFirings(queue: WorkQueue, warn: (message: string) => void, policy: QueuePolicy = FIRING_POLICY): Promise<SharedQueue<Firing>> {
  return sharedQueue<Firing>(queue, { name: TASK_FIRINGS_QUEUE, policy, key: firingKey, concurrency: FIRING_CONCURRENCY, pollMs: 1_000, warn });
}
