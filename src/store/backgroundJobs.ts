// Background subagent jobs (scheduler/jobs) and dream runs (scheduler/dreams): what the store
// keeps of them. The rules that make a job report exactly once live here, in transactions, so
// they hold however many processes share the database.

/** running: pieces still going; reported: a report was written (some piece answered); failed: a report was written and every piece failed; cancelled: never reports. */
export type JobStatus = 'running' | 'reported' | 'failed' | 'cancelled';
export type PieceStatus = 'pending' | 'running' | 'answered' | 'failed' | 'cancelled';

export interface JobRecord {
  id: string;
  /** The session whose turn started the job: its report turn runs there. */
  originSessionId: string;
  syndicate: string;
  /** The job whose piece started this one; null for a job a user's turn started. */
  parentJobId: string | null;
  /** 1 for a job a user's turn started, its parent's depth + 1 for a nested one. */
  depth: number;
  status: JobStatus;
  /** Each piece's time limit, in milliseconds. */
  timeoutMs: number;
  createdAt: number;
  endedAt: number | null;
}

export interface PieceRecord {
  jobId: string;
  /** 0, 1, 2… in the order the pieces were asked for. */
  index: number;
  agent: string;
  request: string;
  sessionId: string;
  status: PieceStatus;
  answer: string | null;
  error: string | null;
  /** The process running it (its runner name) while status is running. */
  runner: string | null;
  /** The running piece's lease: past this time (ms since the epoch) another process may take it over. */
  leaseExpiresAt: number | null;
  /** How many times a process claimed it. */
  attempts: number;
}

export interface NewJob {
  id: string;
  originSessionId: string;
  syndicate: string;
  parentJobId: string | null;
  depth: number;
  timeoutMs: number;
  createdAt: number;
  pieces: ReadonlyArray<Pick<PieceRecord, 'agent' | 'request' | 'sessionId'>>;
}

export interface JobReport {
  /** Unique: `report:<job id>`. The row's existence is the proof that the job reported. */
  key: string;
  jobId: string;
  originSessionId: string;
  syndicate: string;
  text: string;
  createdAt: number;
  /** When the face's deliverReport resolved for it; null while it has not. */
  deliveredAt: number | null;
}

export type PieceOutcome = { status: 'answered'; answer: string } | { status: 'failed'; error: string };

/** What a running piece's heartbeat found: its lease renewed, lost to another process, or its job cancelled. */
export type Heartbeat = 'held' | 'lost' | 'cancelled';

export interface JobQuery {
  originSessionId?: string;
  /** Only jobs whose origin session id starts with this (a server user's: `api:<user>:`). */
  originPrefix?: string;
  status?: JobStatus;
  limit: number;
}

export interface ClaimOptions {
  runner: string;
  /** Only pieces of jobs of these syndicates: the ones the claiming process serves. */
  syndicates: readonly string[];
  now: number;
  leaseMs: number;
  /** A piece claimed this many times already is not claimed again (see failExhausted). */
  maxAttempts: number;
  /** Only this piece (the shared queue offered it to the process), instead of the oldest claimable one. */
  piece?: { jobId: string; index: number };
}

export interface BackgroundJobStore {
  /** Stores the job, running, with its pieces pending; resolves once it is durable. */
  create(job: NewJob): Promise<JobRecord>;
  get(id: string): Promise<{ job: JobRecord; pieces: PieceRecord[] } | undefined>;
  /** Newest first. */
  list(query: JobQuery): Promise<JobRecord[]>;
  /**
   * Claims one piece of a running job, oldest job first: a pending one, or a running one whose
   * lease expired (its process died); undefined when there is none. One process gets each claim.
   */
  claimPiece(options: ClaimOptions): Promise<PieceRecord | undefined>;
  /**
   * Ends, failed with `error`, every piece of a running job of `syndicates` whose lease expired
   * after `maxAttempts` claims; resolves to the ids of the jobs touched (each may now report).
   */
  failExhausted(syndicates: readonly string[], now: number, maxAttempts: number, error: string): Promise<string[]>;
  /** Extends the runner's lease on the piece, unless another process took it over or the job was cancelled. */
  heartbeat(jobId: string, index: number, runner: string, leaseExpiresAt: number): Promise<Heartbeat>;
  /** Records the piece's outcome if `runner` still holds it and its job runs; false otherwise (nothing written). */
  endPiece(jobId: string, index: number, runner: string, outcome: PieceOutcome): Promise<boolean>;
  /**
   * Writes the job's report under its unique key and marks the job reported (or failed, when every
   * piece failed) in one transaction, if the job is running and every piece has ended. `render`
   * writes the report's text from the pieces. Resolves to the report when this call wrote it,
   * undefined when the job had reported or been cancelled already, or still has pieces running.
   */
  report(jobId: string, now: number, render: (job: JobRecord, pieces: readonly PieceRecord[]) => string): Promise<JobReport | undefined>;
  /**
   * Cancels the job, if it is running, and every running job started from its pieces (to any
   * depth), with their unfinished pieces, in one transaction. Resolves to the ids cancelled, the
   * job's first; [] when it had ended already (reported, failed or cancelled).
   */
  cancel(jobId: string, now: number): Promise<string[]>;
  /**
   * Calls `onCancel` with the ids of every cancel committed from now on, by any process on the
   * database, as it commits (PostgreSQL: NOTIFY in the cancel's transaction, LISTEN here), so the
   * process running a cancelled job's piece stops it at once. Absent on SQLite, whose processes
   * see a cancel at their piece's next heartbeat.
   */
  watchCancels?(onCancel: (jobIds: readonly string[]) => void, onError: (error: Error) => void): Promise<{ stop(): Promise<void> }>;
  /** Reports written and not yet delivered, oldest first (after a crash between the two). */
  undelivered(): Promise<JobReport[]>;
  markDelivered(key: string, now: number): Promise<void>;
}

/**
 * answered: the journal and facts were written; failed: it stopped with `error`; interrupted: the
 * process running it stopped before it ended (its lease expired), `error` DREAM_INTERRUPTED_ERROR.
 */
export type DreamStatus = 'running' | 'answered' | 'failed' | 'interrupted';

/** An interrupted dream's error: a crash leaves no other trace. */
export const DREAM_INTERRUPTED_ERROR = 'the process running the dream stopped before it ended (its lease expired)';

export interface DreamRunRecord {
  id: string;
  syndicate: string;
  silo: string;
  /** The dream's own session. */
  sessionId: string;
  status: DreamStatus;
  /** The sessions reflected on were updated after this (ms since the epoch; 0 for the first dream). */
  since: number;
  startedAt: number;
  endedAt: number | null;
  /** The journal document's path in the memory bundle. */
  journalPath: string | null;
  /** How many facts it stored. */
  facts: number;
  /** How many sessions it reflected on. */
  sessions: number;
  error: string | null;
}

export type DreamOutcome = Pick<DreamRunRecord, 'endedAt' | 'journalPath' | 'facts' | 'sessions' | 'error'> & { status: 'answered' | 'failed' };

/**
 * Dream runs, with the crash rule of task runs (store/schedules.ts): a running dream is held by its
 * process's `runner` under a lease the process renews; a dream whose lease expired is interrupted.
 */
export interface DreamRunRecords {
  /** Records a running dream, held by `runner` until `leaseExpiresAt` (ms since the epoch). */
  start(run: Pick<DreamRunRecord, 'id' | 'syndicate' | 'silo' | 'sessionId' | 'since' | 'startedAt'> & { runner: string; leaseExpiresAt: number }): Promise<void>;
  /** Extends the runner's lease on its running dream; false when it no longer holds it (it was interrupted). */
  heartbeat(id: string, runner: string, leaseExpiresAt: number): Promise<boolean>;
  /** Records the dream's end if `runner` still holds it; false otherwise (nothing written). */
  finish(id: string, runner: string, outcome: DreamOutcome): Promise<boolean>;
  /** Marks every running dream whose lease expired by `now` interrupted (error DREAM_INTERRUPTED_ERROR); resolves to them. */
  interruptExpired(now: number): Promise<DreamRunRecord[]>;
  /** The silo's runs, newest first. */
  list(syndicate: string, silo: string, limit: number): Promise<DreamRunRecord[]>;
}

export const reportKeyOf = (jobId: string): string => `report:${jobId}`;
