import type { DueDream } from '../dreams/startDreams.js';
import { sharedQueue, type SharedQueue } from './sharedQueue.js';
import type { QueuePolicy, WorkQueue } from './workQueue.js';

// Dreams on the shared queue: every process sends its silos' due dreams, one job per (syndicate,
// silo, due time) however many send it, and the process that takes the job dreams
// (DreamSchedule.take). Retry policy: a dream's job expires an hour after it was taken; pg-boss
// then offers it again, twice at most (a dream whose process died is dreamt again).

export const DREAMS_QUEUE = 'syndicate-dreams';

export const DREAM_POLICY: QueuePolicy = { expireInSeconds: 3_600, retryLimit: 2 };

/** Names the due dream in the queue: its job's id is derived from it. */
export function dreamKey(dream: DueDream): string {
  return JSON.stringify([dream.syndicate, dream.user, dream.dueAt]);
}

export function sharedDreams(queue: WorkQueue, warn: (message: string) => void): Promise<SharedQueue<DueDream>> {
  return sharedQueue<DueDream>(queue, { name: DREAMS_QUEUE, policy: DREAM_POLICY, key: dreamKey, concurrency: 4, pollMs: 5_000, warn });
}
