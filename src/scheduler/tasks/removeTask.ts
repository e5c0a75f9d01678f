import type { ScheduledTask, ScheduleStore, TaskRun } from '../../store/schedules.js';

// Removing a task, the one rule every surface follows (API, `cancel_task`, `syndicate tasks
// remove`): it fires no more, and a run of it still going stops, whichever process runs it (its
// record says interrupted, with who removed it). A fired one-time task is inactive already; its
// run in flight is still stopped. A task its syndicate file declares is refused while the file
// declares it: the file is its source, and serve would bring it back at the next reload or start.

export type RemovedTask =
  | {
      ok: true;
      /** Whether the task was active (false: it had fired, or was removed before). */
      deactivated: boolean;
      /** The run in flight that was stopped, if one was. */
      stopped: TaskRun | undefined;
    }
  | { ok: false; error: string };

/** Why the task may not be removed here; undefined when it may. */
export function removalRefusal(task: ScheduledTask): string | undefined {
  if (task.origin !== 'file' || !task.active) return undefined;
  return `the task '${task.name}' is declared in ${task.syndicate}'s syndicate file (schedules:), which would bring it back when serve next loads the file: remove it from the file instead (a running serve deactivates it when the file reloads)`;
}

/** `by` says who removed it, in the stopped run's detail ("through the API", "by the agent Boss"). */
export async function removeTask(schedules: ScheduleStore, task: ScheduledTask, by: string, now: number): Promise<RemovedTask> {
  const refusal = removalRefusal(task);
  if (refusal !== undefined) return { ok: false, error: refusal };
  const deactivated = await schedules.deactivate(task.id);
  const [stopped] = await schedules.cancelRuns({ taskId: task.id }, `cancelled: its task '${task.name}' was removed ${by} while the run was going`, now);
  return { ok: true, deactivated, stopped };
}
