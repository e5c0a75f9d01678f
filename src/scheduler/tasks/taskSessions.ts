// The sessions a task's `session: new` runs go to: `task:<owner>:<task id>:<scheduled time>`. The
// owner comes first so one prefix finds every run session of a user's (the server shows them to
// that user), and `task:` marks them unattended (dreams never reflect on them).

/** The prefix of every task run's session. */
export const TASK_SESSIONS = 'task:';

/** The prefix of every run session of the tasks that run for `user` (user ids hold no ':'). */
export function taskSessionPrefix(user: string): string {
  return `${TASK_SESSIONS}${user}:`;
}

export function newRunSessionId(runAs: string, taskId: string, scheduledFor: number): string {
  return `${taskSessionPrefix(runAs)}${taskId}:${new Date(scheduledFor).toISOString()}`;
}
