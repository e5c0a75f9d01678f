// The background-job tool names a syndicate file may list in `tools:`. The scheduler layer
// (scheduler/jobs) implements them; a face that runs no job runner leaves them unavailable.

export const DELEGATE_BACKGROUND = 'delegate_background';
export const PARALLEL_SUBTASKS = 'parallel_subtasks';
export const CANCEL_BACKGROUND_JOB = 'cancel_background_job';
export const LIST_BACKGROUND_JOBS = 'list_background_jobs';

export const BACKGROUND_TOOL_NAMES: readonly string[] = [DELEGATE_BACKGROUND, PARALLEL_SUBTASKS, CANCEL_BACKGROUND_JOB, LIST_BACKGROUND_JOBS];
