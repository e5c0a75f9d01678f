import { setTimeout as sleep } from 'node:timers/promises';
import { TaskState, type Task } from '@a2a-js/sdk';
import { TaskNotCancelableError } from '@a2a-js/sdk/errors';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import type { TaskRecords } from '../store/tasks.js';
import { RUNNING_STATES, SETTLED_STATES } from './taskStates.js';

// Several servers share one database, and a CancelTask may reach one that does not run the task's
// turn. That server asks the runner through the database (TaskRecords.requestCancel: NOTIFY on
// PostgreSQL, a polled row on SQLite), and answers once the runner has saved the task's end: its
// turn's own canceled state, or the state it ended in first.

export const CANCEL_CONFIRM_MS = 10_000;
const CHECK_EVERY_MS = 100;

/** Whether a turn still runs the task, here or elsewhere. */
export function isRunning(task: Task): boolean {
  return RUNNING_STATES.has(task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED);
}

export interface CancelElsewhereOptions {
  records: TaskRecords;
  /** The agent's task store, which reads what the runner saved. */
  tasks: TaskStore;
  agent: string;
  confirmMs?: number;
}

/**
 * Asks the runner to stop the task's turn and waits until the task has settled. Rejects, as the
 * protocol's not-cancelable error, when no runner settles it in time: the runner may have died
 * (another server marks its tasks failed once its lease expires).
 */
export async function cancelElsewhere(task: Task, context: ServerCallContext, { records, tasks, agent, confirmMs = CANCEL_CONFIRM_MS }: CancelElsewhereOptions): Promise<void> {
  await records.requestCancel({ agent, taskId: task.id });
  const deadline = Date.now() + confirmMs;
  for (;;) {
    const now = await tasks.load(task.id, context);
    if (now === undefined || SETTLED_STATES.has(now.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED)) return;
    if (Date.now() >= deadline) {
      throw new TaskNotCancelableError(
        `task ${task.id} runs on another server, which did not confirm the cancel within ${Math.round(confirmMs / 1000)} s: ` +
          'it may have stopped, and its task is marked failed once its lease expires; ask again later',
      );
    }
    await sleep(CHECK_EVERY_MS);
  }
}
