import { nextFiring, previousFiring } from '../../config/cron.js';
import type { ScheduledTask } from '../../store/schedules.js';

// Which firings of a task are due, and which of them were missed. A firing is missed when it is
// older than the grace when a scheduler first sees it: no server was running then (a running one
// looks at least every poll interval). Missed firings are not enumerated one by one (a task every
// second, after a day down, has 86,400): the scheduler records them as one skipped run.

export interface DueFirings {
  /** Within the grace, oldest first: each is claimed. */
  onTime: number[];
  /** The earliest and latest firing older than the grace; undefined when none was missed. */
  missed: { earliest: number; latest: number } | undefined;
}

const NOTHING: DueFirings = { onTime: [], missed: undefined };

export function dueFirings(task: ScheduledTask, now: number, graceMs: number): DueFirings {
  const cutoff = now - graceMs;
  if (task.at !== null) {
    if (task.lastScheduledFor !== null || task.at > now) return NOTHING;
    return task.at < cutoff ? { onTime: [], missed: { earliest: task.at, latest: task.at } } : { onTime: [task.at], missed: undefined };
  }
  if (task.cron === null) throw new Error(`task ${task.id} has neither a cron pattern nor an instant`);
  const from = task.lastScheduledFor ?? task.createdAt;
  const first = nextFiring(task.cron, task.timezone, from);
  if (first === undefined || first > now) return NOTHING;
  let missed: DueFirings['missed'];
  let next: number | undefined = first;
  if (first < cutoff) {
    missed = { earliest: first, latest: previousFiring(task.cron, task.timezone, cutoff - 1) ?? first };
    next = nextFiring(task.cron, task.timezone, missed.latest);
  }
  const onTime: number[] = [];
  while (next !== undefined && next <= now) {
    onTime.push(next);
    next = nextFiring(task.cron, task.timezone, next);
  }
  return { onTime, missed };
}

/** When the task fires next after `now`; undefined when it never will. */
export function nextFiringOf(task: ScheduledTask, now: number): number | undefined {
  if (task.at !== null) return task.lastScheduledFor === null ? Math.max(task.at, now) : undefined;
  return task.cron === null ? undefined : nextFiring(task.cron, task.timezone, now);
}
