import { TaskState } from '@a2a-js/sdk';

/**
 * The states where a task stops for its caller: done (completed, failed, canceled, rejected) or
 * waiting on the caller (input or auth required). A stream ends at one, and a blocking
 * SendMessage answers with it.
 */
export const SETTLED_STATES: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
  TaskState.TASK_STATE_INPUT_REQUIRED,
  TaskState.TASK_STATE_AUTH_REQUIRED,
]);

/** The states where a turn is still running the task (on this server or another). */
export const RUNNING_STATES: ReadonlySet<TaskState> = new Set([TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING]);
