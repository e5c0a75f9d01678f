import { DEFAULT_PIECE_TIMEOUT_S } from '../jobs/limits.js';
import { sharedQueue, type SharedQueue } from './sharedQueue.js';
import type { QueuePolicy, WorkQueue } from './workQueue.js';

// Background jobs' pieces on the shared queue: the process that starts a job sends one job per
// piece (its id derived from the background job's id and the piece's index, so a second send is
// the same job), and every process's job runner takes pieces from the queue (JobRunner). The
// store's piece record stays the one decision: taking a piece is its claim in the store, and a
// piece whose record has ended (or whose job was cancelled) is done with, however often pg-boss
// offers it.
//
// Retry policy: pg-boss 10 has no heartbeat, so a piece's job expires its time limit plus
// PIECE_EXPIRY_MARGIN_S after a process took it; the margin outlasts the store lease the dead
// process held (30 s), so the process offered the piece again can claim it. pg-boss offers a
// piece's job at most 1 + PIECE_RETRY_LIMIT times; the store bounds how often the piece runs (its
// claims, the runner's maxAttempts, 2 by default), and a piece whose last claim's process died ends
// failed (the runner's poll, failExhausted). The other offers cover a process that refused the
// piece: it was stopping, or the store lease was still held (each refusal is retried after a lease).

export const PIECES_QUEUE = 'syndicate-pieces';

export const PIECE_EXPIRY_MARGIN_S = 60;
export const PIECE_RETRY_LIMIT = 3;

/** What a piece's job carries: which piece, and its time limit (its job's expiry follows it). */
export interface PieceJob {
  jobId: string;
  index: number;
  timeoutS: number;
}

export interface PieceQueueOptions {
  /** Pieces one process runs at once. */
  concurrency: number;
  /** The store lease of a running piece: a refused piece is offered again after it. */
  leaseMs: number;
  /** Added to a piece's time limit to make its job's expiry (tests shorten it). */
  expiryMarginS?: number;
  warn(message: string): void;
}

/** Names the piece in the queue: its job's id is derived from it. */
export function pieceKey(piece: Pick<PieceJob, 'jobId' | 'index'>): string {
  return `${piece.jobId}#${piece.index}`;
}

export function sharedPieces(queue: WorkQueue, options: PieceQueueOptions): Promise<SharedQueue<PieceJob>> {
  const marginS = options.expiryMarginS ?? PIECE_EXPIRY_MARGIN_S;
  // Each piece's job states its own expiry; the queue's is that of a piece with the default time limit.
  const policy: QueuePolicy = { expireInSeconds: DEFAULT_PIECE_TIMEOUT_S + marginS, retryLimit: PIECE_RETRY_LIMIT };
  return sharedQueue<PieceJob>(queue, {
    name: PIECES_QUEUE,
    policy,
    key: pieceKey,
    jobOptions: ({ timeoutS }) => ({ expireInSeconds: timeoutS + marginS, retryDelay: Math.ceil(options.leaseMs / 1000) }),
    concurrency: options.concurrency,
    pollMs: 1_000,
    warn: options.warn,
  });
}
