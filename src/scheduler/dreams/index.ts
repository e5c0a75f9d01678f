export { runDream, JOURNAL_BUNDLE, type RunDreamOptions } from './runDream.js';
export { startDreams, type DreamSchedule, type StartDreamsOptions } from './startDreams.js';
export { isSessionOf, isUnattendedSession } from './dreamSessions.js';
