import { randomUUID } from 'node:crypto';
import { processRunnerName } from '../runnerName.js';
import { errorMessage } from '../../core/errors.js';
import type { BackgroundCapability } from '../../runtime/background.js';
import type { CompiledSyndicate } from '../../runtime/compileSyndicate.js';
import { pieceKey, sharedPieces, type PieceJob } from '../pgBoss/pieces.js';
import type { SharedQueue } from '../pgBoss/sharedQueue.js';
import type { WorkQueue } from '../pgBoss/workQueue.js';
import type { RunTurnOptions } from '../../runtime/runTurn.js';
import type { JobRecord, JobReport, PieceOutcome, PieceRecord } from '../../store/backgroundJobs.js';
import type { Store } from '../../store/store.js';
import { createJobTools, type JobControl, type JobScope } from './jobTools.js';
import { runPiece } from './runPiece.js';
import { renderReport } from './report.js';

// Runs background jobs' pieces in this process and delivers their reports. A piece runs under a
// store lease the runner renews while it runs, and fails once it has been claimed maxAttempts times
// by processes that died. Without a shared queue (SQLite) the runner claims pieces from the store
// itself, and takes over a piece whose process died once its lease expires. With one (PostgreSQL,
// pg-boss: scheduler/pgBoss/pieces.ts) each piece is a queue job, and the process the queue offers
// it to claims it in the store; a piece whose process died is offered again once its job expires.
// The report is written exactly once (the store's transaction); delivery follows it, and a report
// written but not delivered (a crash in between) is delivered when a runner next starts. A cancel
// from any process reaches the one running the piece at once where the store tells of cancels
// (PostgreSQL), else at the piece's next heartbeat.

/** Runs the report turn in the originating session (the face's turn queue: behind a running turn, like any message). */
export type DeliverReport = (sessionId: string, text: string, report: JobReport) => Promise<void>;

/** What a piece's turn gets besides its input, session, signal and limit (observers, memory), and what to do once it has ended. */
export interface PieceTurn {
  options: Partial<RunTurnOptions>;
  ended?(outcome: PieceOutcome): void;
}

export interface JobRunnerOptions {
  store: Store;
  /**
   * The syndicates this process serves, by name, as they are now (a server reloads their files):
   * it runs the pieces of their jobs, and no others.
   */
  syndicates(): ReadonlyMap<string, CompiledSyndicate>;
  deliverReport: DeliverReport;
  pieceTurn?(piece: PieceRecord, job: JobRecord, syndicate: CompiledSyndicate): Promise<PieceTurn>;
  /** This process's name on the leases; by default host, pid and a random suffix. */
  runner?: string;
  leaseMs?: number;
  /** How often the runner looks for pieces others left (a crashed process) and reports to redeliver. */
  pollMs?: number;
  /** Pieces this process runs at once. */
  concurrency?: number;
  /** Claims of one piece before it fails. */
  maxAttempts?: number;
  /** The queue the processes on a PostgreSQL store share: pieces go through it (pgBoss/pieces.ts). */
  workQueue?: WorkQueue;
  /** Added to a piece's time limit to make its queue job's expiry (pgBoss/pieces.ts; tests shorten it). */
  expiryMarginS?: number;
  now?(): number;
  /** Told about failures that stop nothing (a delivery that failed, a poll that could not read). */
  warn?(message: string): void;
}

export interface JobRunner extends BackgroundCapability {
  readonly name: string;
  /** Starts polling (recovery of abandoned pieces and undelivered reports) and listening for cancels. Jobs this process starts run without it. */
  start(): void;
  cancel(jobId: string): Promise<string[]>;
  list(originSessionId?: string): Promise<JobRecord[]>;
  /** Resolves once this process runs no piece and delivers no report (the CLI waits for it before leaving). */
  idle(): Promise<void>;
  /** Whether this process is claiming, running or reporting a piece (idle() resolves once it is not). */
  readonly busy: boolean;
  /** Stops polling and aborts the pieces running here (their leases expire; another runner may take them over). */
  close(): Promise<void>;
}

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_POLL_MS = 2_000;
const DEFAULT_CONCURRENCY = 4;
const DEFAULT_MAX_ATTEMPTS = 2;

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { store } = options;
  const jobs = store.backgroundJobs;
  const name = options.runner ?? processRunnerName();
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const now = options.now ?? Date.now;
  const served = (): string[] => [...options.syndicates().keys()];
  const warn = options.warn ?? ((message: string) => void process.stderr.write(`warning: ${message}\n`));
  /** The pieces running here, by `${jobId}#${index}`. */
  const running = new Map<string, { jobId: string; controller: AbortController }>();
  const work = new Set<Promise<void>>();
  const delivering = new Set<string>();
  let idleWaiters: Array<() => void> = [];
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let claiming = false;
  let claimAgain = false;
  let watching: Promise<{ stop(): Promise<void> }> | undefined;
  const shared: Promise<SharedQueue<PieceJob>> | undefined =
    options.workQueue && sharedPieces(options.workQueue, { concurrency, leaseMs, expiryMarginS: options.expiryMarginS, warn });
  // Its failure is reported where the queue is used (start, a job's start).
  shared?.catch(() => undefined);

  const track = (promise: Promise<void>): void => {
    const done = promise.catch((error: unknown) => warn(`a background job step failed: ${errorMessage(error)}`)).finally(() => {
      work.delete(done);
      if (work.size === 0 && running.size === 0) {
        for (const resolve of idleWaiters) resolve();
        idleWaiters = [];
      }
    });
    work.add(done);
  };

  const deliver = async (report: JobReport): Promise<void> => {
    if (delivering.has(report.key)) return;
    delivering.add(report.key);
    try {
      await options.deliverReport(report.originSessionId, report.text, report);
      await jobs.markDelivered(report.key, now());
    } finally {
      delivering.delete(report.key);
    }
  };

  const tryReport = async (jobId: string): Promise<void> => {
    const report = await jobs.report(jobId, now(), renderReport);
    if (report) await deliver(report);
  };

  /** Runs a claimed piece and records its outcome; resolves to false when it was aborted (nothing recorded). */
  const execute = async (piece: PieceRecord): Promise<boolean> => {
    const key = `${piece.jobId}#${piece.index}`;
    const controller = new AbortController();
    running.set(key, { jobId: piece.jobId, controller });
    // Renewed at a third of the lease, so two missed beats still hold it.
    const beat = setInterval(() => {
      jobs.heartbeat(piece.jobId, piece.index, name, now() + leaseMs).then(
        (state) => state !== 'held' && controller.abort(),
        (error: unknown) => warn(`the lease of background piece ${key} could not be renewed: ${errorMessage(error)}`),
      );
    }, Math.max(1, Math.floor(leaseMs / 3)));
    beat.unref();
    let outcome: PieceOutcome | undefined;
    try {
      const stored = await jobs.get(piece.jobId);
      if (!stored || stored.job.status !== 'running') return true;
      const { job } = stored;
      const syndicate = options.syndicates().get(job.syndicate);
      if (syndicate) {
        const turn = await options.pieceTurn?.(piece, job, syndicate);
        outcome = await runPiece({ syndicate, job, piece, store, signal: controller.signal, background: capabilityFor({ parent: job }), extra: turn?.options });
        turn?.ended?.(outcome);
      } else {
        outcome = { status: 'failed', error: `the syndicate '${job.syndicate}' is not served by this process, so its piece could not run` };
      }
    } catch (error) {
      outcome = { status: 'failed', error: errorMessage(error) };
    } finally {
      clearInterval(beat);
      running.delete(key);
    }
    // Aborted: the job was cancelled, the lease lost, or this runner is closing. Nothing to record.
    if (outcome === undefined || controller.signal.aborted) return false;
    if (await jobs.endPiece(piece.jobId, piece.index, name, outcome)) track(tryReport(piece.jobId));
    return true;
  };

  /**
   * Takes the piece the shared queue offered: claims it in the store and runs it. Resolves once its
   * outcome is recorded, or when there is nothing to do (it ended, its job was cancelled, or its last
   * claim's process died: the poll fails it); rejects, so the queue offers it again, when another
   * process still holds its lease or this one cannot run it.
   */
  const take = async ({ jobId, index }: PieceJob): Promise<void> => {
    const key = pieceKey({ jobId, index });
    if (closed) throw new Error(`this process is stopping, so it does not run background piece ${key}`);
    const piece = await jobs.claimPiece({ runner: name, syndicates: served(), now: now(), leaseMs, maxAttempts, piece: { jobId, index } });
    if (piece) {
      if (!(await execute(piece)) && closed) throw new Error(`this process stopped while it ran background piece ${key}; another process takes it over once its lease expires`);
      return;
    }
    const stored = await jobs.get(jobId);
    const record = stored?.pieces[index];
    if (!stored || !record || stored.job.status !== 'running' || (record.status !== 'pending' && record.status !== 'running')) return;
    if (record.status === 'running' && (record.leaseExpiresAt ?? 0) > now()) throw new Error(`background piece ${key} still runs in ${record.runner ?? 'another process'} (its lease is held)`);
    if (record.attempts >= maxAttempts) return;
    throw new Error(`this process does not serve the syndicate '${stored.job.syndicate}', so it cannot run background piece ${key}; serve it in every process on the database`);
  };

  /** Claims and starts pieces while there is room; one claim loop at a time. */
  const claim = async (): Promise<void> => {
    if (claiming) {
      claimAgain = true;
      return;
    }
    claiming = true;
    try {
      do {
        claimAgain = false;
        while (!closed && running.size < concurrency) {
          const piece = await jobs.claimPiece({ runner: name, syndicates: served(), now: now(), leaseMs, maxAttempts });
          if (!piece) break;
          track(execute(piece).then(() => undefined).finally(() => kick()));
        }
      } while (claimAgain && !closed);
    } finally {
      claiming = false;
    }
  };
  const kick = (): void => {
    if (!closed) track(claim());
  };

  const poll = async (): Promise<void> => {
    const exhausted = await jobs.failExhausted(served(), now(), maxAttempts, `the process running it stopped, ${maxAttempts} times (its lease expired)`);
    for (const jobId of exhausted) track(tryReport(jobId));
    // Left by a process that wrote the report and died before it was delivered; a lease's age, so
    // a report another live process is delivering right now is left to it.
    for (const report of await jobs.undelivered()) {
      if (options.syndicates().has(report.syndicate) && report.createdAt <= now() - leaseMs) track(deliver(report));
    }
    // With a shared queue, pieces a stopped process left are offered again by the queue.
    if (!shared) kick();
  };

  const abortPieces = (jobIds: readonly string[]): void => {
    const ids = new Set(jobIds);
    for (const { jobId: pieceJob, controller } of running.values()) if (ids.has(pieceJob)) controller.abort();
  };

  /** Walks a job's parents up to the job a session's turn started. */
  const owned = async (jobId: string, sessionId: string): Promise<boolean> => {
    for (let id: string | null = jobId, hops = 0; id !== null && hops <= 10; hops++) {
      const stored = await jobs.get(id);
      if (!stored) return false;
      if (stored.job.originSessionId === sessionId) return true;
      id = stored.job.parentJobId;
    }
    return false;
  };

  const cancel = async (jobId: string): Promise<string[]> => {
    const cancelled = await jobs.cancel(jobId, now());
    // Pieces running here stop now; those running elsewhere stop when the store tells their
    // process (watchCancels), or else at their next heartbeat.
    abortPieces(cancelled);
    if (shared) await cancelQueued(await shared, cancelled);
    return cancelled;
  };

  /** Takes the cancelled jobs' pieces out of the shared queue (a process taking one would find its job cancelled, and do nothing). */
  const cancelQueued = async (queue: SharedQueue<PieceJob>, jobIds: readonly string[]): Promise<void> => {
    try {
      const keys = await Promise.all(jobIds.map(async (id) => ((await jobs.get(id))?.pieces ?? []).map(pieceKey)));
      await queue.cancel(keys.flat());
    } catch (error) {
      warn(`the pieces of cancelled jobs ${jobIds.join(', ')} stay in the shared queue (a process that takes one does nothing, its job being cancelled): ${errorMessage(error)}`);
    }
  };

  /** Sends a new job's pieces to the shared queue; a job whose pieces could not all be sent is cancelled, so none of it runs half-sent. */
  const send = async (queue: Promise<SharedQueue<PieceJob>>, job: JobRecord, count: number): Promise<void> => {
    const timeoutS = Math.ceil(job.timeoutMs / 1000);
    try {
      const pieces = await queue;
      await Promise.all(Array.from({ length: count }, (_, index) => pieces.send({ jobId: job.id, index, timeoutS })));
    } catch (error) {
      await cancel(job.id);
      throw new Error(`could not hand background job ${job.id}'s pieces to the shared work queue (pg-boss), so the job was cancelled: ${errorMessage(error)}; check the store's PostgreSQL database, then start the job again`, { cause: error });
    }
  };

  const control: JobControl = {
    async start(run, scope, pieces, timeoutS) {
      const id = `job-${randomUUID()}`;
      const job = await jobs.create({
        id,
        originSessionId: run.sessionId,
        syndicate: run.syndicate.name,
        parentJobId: scope.parent?.id ?? null,
        depth: (scope.parent?.depth ?? 0) + 1,
        timeoutMs: timeoutS * 1000,
        createdAt: now(),
        pieces: pieces.map((piece, index) => ({ ...piece, sessionId: `bg:${id}:${index}` })),
      });
      if (shared) await send(shared, job, pieces.length);
      else kick();
      return job;
    },
    cancel,
    owned,
    async listed(sessionId) {
      const listed = await jobs.list({ originSessionId: sessionId, limit: 20 });
      return Promise.all(
        listed.map(async (job) => ({
          job_id: job.id,
          status: job.status,
          pieces: ((await jobs.get(job.id))?.pieces ?? []).map((piece) => ({ agent: piece.agent, status: piece.status })),
        })),
      );
    },
  };

  function capabilityFor(scope: JobScope): BackgroundCapability {
    return { tools: (run) => createJobTools(run, scope, control) };
  }
  const topLevel = capabilityFor({ parent: undefined });

  return {
    name,
    tools: topLevel.tools,
    start() {
      if (timer || closed) return;
      timer = setInterval(() => track(poll()), pollMs);
      timer.unref();
      track(poll());
      watching = jobs.watchCancels?.(abortPieces, (error) => warn(`cancels from other processes reach this one at its pieces' heartbeats only: ${errorMessage(error)}`));
      watching?.catch((error: unknown) => warn(`could not listen for cancels from other processes (they reach this one at its pieces' heartbeats only): ${errorMessage(error)}`));
      if (shared) {
        track(
          shared.then(
            (queue) => queue.work(take, track),
            (error: unknown) => {
              throw new Error(`this process takes no background pieces from the shared work queue (pg-boss), which could not be opened: ${errorMessage(error)}`, { cause: error });
            },
          ),
        );
      }
    },
    cancel,
    list: (originSessionId) => jobs.list({ originSessionId, limit: 100 }),
    idle() {
      if (work.size === 0 && running.size === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    get busy() {
      return work.size > 0 || running.size > 0;
    },
    async close() {
      closed = true;
      clearInterval(timer);
      await (await watching?.catch(() => undefined))?.stop();
      for (const { controller } of running.values()) controller.abort();
      // The pieces taken from the queue end now (aborted), and the queue offers them again.
      await (await shared?.catch(() => undefined))?.stop();
      await Promise.allSettled([...work]);
    },
  };
}
