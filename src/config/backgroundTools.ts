// The tool names of unattended work a syndicate file may list in `tools:`: background jobs and
// scheduled tasks. The scheduler layer (scheduler/jobs, scheduler/tasks) implements them; the face
// binds them per run, and a face that runs neither leaves them unavailable.

export const DELEGATE_BACKGROUND = 'delegate_background';
export const PARALLEL_SUBTASKS = 'parallel_subtasks';
export const CANCEL_BACKGROUND_JOB = 'cancel_background_job';
export const LIST_BACKGROUND_JOBS = 'list_background_jobs';

export const SCHEDULE_TASK = 'schedule_task';
export const LIST_TASKS = 'list_tasks';
export const CANCEL_TASK = 'cancel_task';
export const LIST_TASK_RUNS = 'list_task_runs';
export const GET_TASK_RUN = 'get_task_run';

export const BACKGROUND_TOOL_NAMES: readonly string[] = [DELEGATE_BACKGROUND, PARALLEL_SUBTASKS, CANCEL_BACKGROUND_JOB, LIST_BACKGROUND_JOBS, SCHEDULE_TASK, LIST_TASKS, CANCEL_TASK, LIST_TASK_RUNS, GET_TASK_RUN];
