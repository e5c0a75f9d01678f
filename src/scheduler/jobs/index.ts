export { createJobRunner, type DeliverReport, type JobRunner, type JobRunnerOptions, type PieceTurn } from './jobRunner.js';
export { renderReport } from './report.js';
export { DEFAULT_PIECE_TIMEOUT_S, MAX_JOB_DEPTH, MAX_PIECE_TIMEOUT_S, MAX_PIECES } from './limits.js';
