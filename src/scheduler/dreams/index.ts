export { runDream, JOURNAL_BUNDLE, type RunDreamOptions } from './runDream.js';
export { startDreams, type DreamQueue, type DreamSchedule, type DueDream, type StartDreamsOptions } from './startDreams.js';
export { isSessionOf, isUnattendedSession } from './dreamSessions.js';
