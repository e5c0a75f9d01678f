export { createTaskScheduler, outcomeOf, runSessionId, type RunTaskTurn, type TaskScheduler, type TaskSchedulerOptions, type TaskTurnEnd, type TaskTurnRequest } from './scheduler.js';
export { dueFirings, nextFiringOf, type DueFirings } from './firings.js';
export { declaredTask, syncDeclaredTasks, type DeclaredOwnership } from './declared.js';
export { addRequestedTask, type AddedTask, type TaskRequest, type TaskRequester } from './taskRequest.js';
export { createTaskTools, type TaskToolBinding } from './taskTools.js';
export { removalRefusal, removeTask, type RemovedTask } from './removeTask.js';
export { TASK_SESSIONS, taskSessionPrefix } from './taskSessions.js';
