import type { ScheduledTask, ScheduleStore, TaskRun } from '../../store/schedules.js';

// Removing a task, the one rule every surface follows (API, `cancel_task`, `syndicate tasks
// remove`): it fires no more, and a run of it still going stops, whichever process runs it (its
// record says interrupted, with who removed it). A fired one-time task is inactive already; its
// run in flight is still stopped.

export interface RemovedTask {
  /** Whether the task was active (false: it had fired, or was removed before). */
  deactivated: boolean;
  /** The run in flight that was stopped, if one was. */
  stopped: TaskRun | undefined;
}

/** `by` says who removed it, in the stopped run's detail ("through the API", "by the agent Boss"). */
export async function removeTask(schedules: ScheduleStore, task: ScheduledTask, by: string, now: number): Promise<RemovedTask> {
  const deactivated = await schedules.deactivate(task.id);
  const [stopped] = await schedules.cancelRuns({ taskId: task.id }, `cancelled: its task '${task.name}' was removed ${by} while the run was going`, now);
  return { deactivated, stopped };
}
