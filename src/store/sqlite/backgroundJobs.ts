import type Database from 'better-sqlite3';
import {
  DREAM_INTERRUPTED_ERROR,
  reportKeyOf,
  type BackgroundJobStore,
  type ClaimOptions,
  type DreamOutcome,
  type DreamRunRecord,
  type DreamRunRecords,
  type Heartbeat,
  type JobQuery,
  type JobRecord,
  type JobReport,
  type NewJob,
  type PieceOutcome,
  type PieceRecord,
} from '../backgroundJobs.js';

// Every write is an IMMEDIATE transaction: the write lock is taken before the state it checks is
// read, so two processes on one file never both see a job still running and both end it.

const JOB_COLUMNS = `id, origin_session_id AS originSessionId, syndicate, parent_job_id AS parentJobId, depth, status,
  timeout_ms AS timeoutMs, created_at AS createdAt, ended_at AS endedAt`;
const pieceColumns = (p: string): string => `${p}.job_id AS jobId, ${p}.piece_index AS "index", ${p}.agent, ${p}.request,
  ${p}.session_id AS sessionId, ${p}.status, ${p}.answer, ${p}.error, ${p}.runner, ${p}.lease_expires_at AS leaseExpiresAt, ${p}.attempts`;
const PIECE_COLUMNS = pieceColumns('background_pieces');
const REPORT_COLUMNS = `key, job_id AS jobId, origin_session_id AS originSessionId, syndicate, text, created_at AS createdAt, delivered_at AS deliveredAt`;
const DREAM_COLUMNS = `id, syndicate, silo, session_id AS sessionId, status, since, started_at AS startedAt, ended_at AS endedAt,
  journal_path AS journalPath, facts, sessions, error`;
const UNFINISHED = "('pending', 'running')";

export function createSqliteBackgroundJobs(db: Database.Database): BackgroundJobStore {
  const sql = {
    insertJob: db.prepare<[NewJob & { status: string }]>(
      `INSERT INTO background_jobs (id, origin_session_id, syndicate, parent_job_id, depth, status, timeout_ms, created_at)
       VALUES (@id, @originSessionId, @syndicate, @parentJobId, @depth, @status, @timeoutMs, @createdAt)`,
    ),
    insertPiece: db.prepare<[jobId: string, index: number, agent: string, request: string, sessionId: string]>(
      "INSERT INTO background_pieces (job_id, piece_index, agent, request, session_id, status) VALUES (?, ?, ?, ?, ?, 'pending')",
    ),
    job: db.prepare<[id: string], JobRecord>(`SELECT ${JOB_COLUMNS} FROM background_jobs WHERE id = ?`),
    pieces: db.prepare<[jobId: string], PieceRecord>(`SELECT ${PIECE_COLUMNS} FROM background_pieces WHERE job_id = ? ORDER BY piece_index`),
    list: db.prepare<[{ origin: string | null; prefix: string | null; status: string | null; limit: number }], JobRecord>(
      `SELECT ${JOB_COLUMNS} FROM background_jobs WHERE (@origin IS NULL OR origin_session_id = @origin)
         AND (@prefix IS NULL OR substr(origin_session_id, 1, length(@prefix)) = @prefix) AND (@status IS NULL OR status = @status)
       ORDER BY created_at DESC, id DESC LIMIT @limit`,
    ),
    claimable: db.prepare<[{ now: number; maxAttempts: number; syndicates: string; jobId: string | null; index: number | null }], PieceRecord>(
      `SELECT ${pieceColumns('p')} FROM background_pieces AS p JOIN background_jobs AS j ON j.id = p.job_id
       WHERE j.status = 'running' AND p.attempts < @maxAttempts AND j.syndicate IN (SELECT value FROM json_each(@syndicates))
         AND (p.status = 'pending' OR (p.status = 'running' AND p.lease_expires_at <= @now))
         AND (@jobId IS NULL OR (p.job_id = @jobId AND p.piece_index = @index))
       ORDER BY j.created_at, p.job_id, p.piece_index LIMIT 1`,
    ),
    take: db.prepare<[runner: string, expiresAt: number, jobId: string, index: number]>(
      "UPDATE background_pieces SET status = 'running', runner = ?, lease_expires_at = ?, attempts = attempts + 1 WHERE job_id = ? AND piece_index = ?",
    ),
    exhausted: db.prepare<[syndicates: string, now: number, maxAttempts: number], { jobId: string; index: number }>(
      `SELECT p.job_id AS jobId, p.piece_index AS "index" FROM background_pieces AS p JOIN background_jobs AS j ON j.id = p.job_id
       WHERE j.syndicate IN (SELECT value FROM json_each(?)) AND j.status = 'running' AND p.status = 'running' AND p.lease_expires_at <= ? AND p.attempts >= ?`,
    ),
    failPiece: db.prepare<[error: string, jobId: string, index: number]>(
      "UPDATE background_pieces SET status = 'failed', error = ?, runner = NULL, lease_expires_at = NULL WHERE job_id = ? AND piece_index = ?",
    ),
    holder: db.prepare<[jobId: string, index: number], { runner: string | null; status: string; jobStatus: string }>(
      `SELECT p.runner, p.status, j.status AS jobStatus FROM background_pieces AS p JOIN background_jobs AS j ON j.id = p.job_id
       WHERE p.job_id = ? AND p.piece_index = ?`,
    ),
    renew: db.prepare<[expiresAt: number, jobId: string, index: number]>('UPDATE background_pieces SET lease_expires_at = ? WHERE job_id = ? AND piece_index = ?'),
    endPiece: db.prepare<[status: string, answer: string | null, error: string | null, jobId: string, index: number]>(
      'UPDATE background_pieces SET status = ?, answer = ?, error = ?, runner = NULL, lease_expires_at = NULL WHERE job_id = ? AND piece_index = ?',
    ),
    endJob: db.prepare<[status: string, endedAt: number, id: string]>("UPDATE background_jobs SET status = ?, ended_at = ? WHERE id = ? AND status = 'running'"),
    insertReport: db.prepare<[JobReport]>(
      `INSERT INTO background_reports (key, job_id, origin_session_id, syndicate, text, created_at) VALUES (@key, @jobId, @originSessionId, @syndicate, @text, @createdAt)`,
    ),
    tree: db.prepare<[id: string], { id: string }>(
      `WITH RECURSIVE tree (id) AS (SELECT ? UNION SELECT j.id FROM background_jobs AS j JOIN tree ON j.parent_job_id = tree.id)
       SELECT j.id FROM background_jobs AS j JOIN tree ON tree.id = j.id WHERE j.status = 'running' ORDER BY j.depth, j.created_at`,
    ),
    cancelPieces: db.prepare<[jobId: string]>(
      `UPDATE background_pieces SET status = 'cancelled', runner = NULL, lease_expires_at = NULL WHERE job_id = ? AND status IN ${UNFINISHED}`,
    ),
    undelivered: db.prepare<[], JobReport>(`SELECT ${REPORT_COLUMNS} FROM background_reports WHERE delivered_at IS NULL ORDER BY created_at, key`),
    delivered: db.prepare<[at: number, key: string]>('UPDATE background_reports SET delivered_at = ? WHERE key = ? AND delivered_at IS NULL'),
  };

  const create = db.transaction((job: NewJob): void => {
    sql.insertJob.run({ ...job, status: 'running' });
    job.pieces.forEach((piece, index) => sql.insertPiece.run(job.id, index, piece.agent, piece.request, piece.sessionId));
  });
  const claim = db.transaction(({ runner, syndicates, now, leaseMs, maxAttempts, piece: only }: ClaimOptions): PieceRecord | undefined => {
    const piece = sql.claimable.get({ now, maxAttempts, syndicates: JSON.stringify(syndicates), jobId: only?.jobId ?? null, index: only?.index ?? null });
    if (!piece) return undefined;
    sql.take.run(runner, now + leaseMs, piece.jobId, piece.index);
    return { ...piece, status: 'running', runner, leaseExpiresAt: now + leaseMs, attempts: piece.attempts + 1 };
  });
  const failExhausted = db.transaction((syndicates: readonly string[], now: number, maxAttempts: number, error: string): string[] => {
    const pieces = sql.exhausted.all(JSON.stringify(syndicates), now, maxAttempts);
    for (const { jobId, index } of pieces) sql.failPiece.run(error, jobId, index);
    return [...new Set(pieces.map((piece) => piece.jobId))];
  });
  const heartbeat = db.transaction((jobId: string, index: number, runner: string, expiresAt: number): Heartbeat => {
    const holder = sql.holder.get(jobId, index);
    if (!holder || holder.jobStatus === 'cancelled' || holder.status === 'cancelled') return 'cancelled';
    if (holder.status !== 'running' || holder.runner !== runner) return 'lost';
    sql.renew.run(expiresAt, jobId, index);
    return 'held';
  });
  const endPiece = db.transaction((jobId: string, index: number, runner: string, outcome: PieceOutcome): boolean => {
    const holder = sql.holder.get(jobId, index);
    if (!holder || holder.jobStatus !== 'running' || holder.status !== 'running' || holder.runner !== runner) return false;
    const answer = outcome.status === 'answered' ? outcome.answer : null;
    const error = outcome.status === 'failed' ? outcome.error : null;
    sql.endPiece.run(outcome.status, answer, error, jobId, index);
    return true;
  });
  const report = db.transaction((jobId: string, now: number, render: (job: JobRecord, pieces: readonly PieceRecord[]) => string): JobReport | undefined => {
    const job = sql.job.get(jobId);
    if (!job || job.status !== 'running') return undefined;
    const pieces = sql.pieces.all(jobId);
    if (pieces.some((piece) => piece.status === 'pending' || piece.status === 'running')) return undefined;
    const status = pieces.every((piece) => piece.status === 'failed') ? 'failed' : 'reported';
    const written: JobReport = {
      key: reportKeyOf(jobId),
      jobId,
      originSessionId: job.originSessionId,
      syndicate: job.syndicate,
      text: render({ ...job, status, endedAt: now }, pieces),
      createdAt: now,
      deliveredAt: null,
    };
    sql.insertReport.run(written);
    sql.endJob.run(status, now, jobId);
    return written;
  });
  const cancel = db.transaction((jobId: string, now: number): string[] => {
    if (sql.job.get(jobId)?.status !== 'running') return [];
    const ids = sql.tree.all(jobId).map((row) => row.id);
    for (const id of ids) {
      sql.endJob.run('cancelled', now, id);
      sql.cancelPieces.run(id);
    }
    return ids;
  });

  return {
    async create(job) {
      create.immediate(job);
      return { id: job.id, originSessionId: job.originSessionId, syndicate: job.syndicate, parentJobId: job.parentJobId, depth: job.depth, status: 'running', timeoutMs: job.timeoutMs, createdAt: job.createdAt, endedAt: null };
    },
    async get(id) {
      const job = sql.job.get(id);
      return job && { job, pieces: sql.pieces.all(id) };
    },
    async list(query: JobQuery) {
      return sql.list.all({ origin: query.originSessionId ?? null, prefix: query.originPrefix ?? null, status: query.status ?? null, limit: query.limit });
    },
    async claimPiece(options) {
      return claim.immediate(options);
    },
    async failExhausted(syndicates, now, maxAttempts, error) {
      return failExhausted.immediate(syndicates, now, maxAttempts, error);
    },
    async heartbeat(jobId, index, runner, leaseExpiresAt) {
      return heartbeat.immediate(jobId, index, runner, leaseExpiresAt);
    },
    async endPiece(jobId, index, runner, outcome) {
      return endPiece.immediate(jobId, index, runner, outcome);
    },
    async report(jobId, now, render) {
      return report.immediate(jobId, now, render);
    },
    async cancel(jobId, now) {
      return cancel.immediate(jobId, now);
    },
    async undelivered() {
      return sql.undelivered.all();
    },
    async markDelivered(key, now) {
      sql.delivered.run(now, key);
    },
  };
}

export function createSqliteDreamRuns(db: Database.Database): DreamRunRecords {
  const sql = {
    start: db.prepare<[Parameters<DreamRunRecords['start']>[0]]>(
      `INSERT INTO dream_runs (id, syndicate, silo, session_id, status, since, started_at, runner, lease_expires_at)
       VALUES (@id, @syndicate, @silo, @sessionId, 'running', @since, @startedAt, @runner, @leaseExpiresAt)`,
    ),
    heartbeat: db.prepare<[{ id: string; runner: string; leaseExpiresAt: number }]>(
      "UPDATE dream_runs SET lease_expires_at = @leaseExpiresAt WHERE id = @id AND runner = @runner AND status = 'running'",
    ),
    finish: db.prepare<[DreamOutcome & { id: string; runner: string }]>(
      `UPDATE dream_runs SET status = @status, ended_at = @endedAt, journal_path = @journalPath, facts = @facts, sessions = @sessions, error = @error,
       runner = NULL, lease_expires_at = NULL WHERE id = @id AND runner = @runner AND status = 'running'`,
    ),
    interruptExpired: db.prepare<[{ now: number; error: string }], DreamRunRecord>(
      `UPDATE dream_runs SET status = 'interrupted', error = @error, ended_at = @now, runner = NULL, lease_expires_at = NULL
       WHERE status = 'running' AND lease_expires_at <= @now RETURNING ${DREAM_COLUMNS}`,
    ),
    list: db.prepare<[syndicate: string, silo: string, limit: number], DreamRunRecord>(
      `SELECT ${DREAM_COLUMNS} FROM dream_runs WHERE syndicate = ? AND silo = ? ORDER BY started_at DESC, id DESC LIMIT ?`,
    ),
  };
  return {
    async start(run) {
      sql.start.run(run);
    },
    async heartbeat(id, runner, leaseExpiresAt) {
      return sql.heartbeat.run({ id, runner, leaseExpiresAt }).changes === 1;
    },
    async finish(id, runner, outcome) {
      return sql.finish.run({ ...outcome, id, runner }).changes === 1;
    },
    async interruptExpired(now) {
      return sql.interruptExpired.all({ now, error: DREAM_INTERRUPTED_ERROR });
    },
    async list(syndicate, silo, limit) {
      return sql.list.all(syndicate, silo, limit);
    },
  };
}
