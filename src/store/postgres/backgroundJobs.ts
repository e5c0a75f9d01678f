import type pg from 'pg';
import {
  DREAM_INTERRUPTED_ERROR,
  reportKeyOf,
  type BackgroundJobStore,
  type DreamRunRecord,
  type DreamRunRecords,
  type JobRecord,
  type JobReport,
  type PieceRecord,
} from '../backgroundJobs.js';
import type { Db } from './connection.js';
import { cancelledIdsChannel } from './cancelledIds.js';

// Each decision takes the job row's lock (SELECT ... FOR UPDATE) before it reads the state it
// checks, so a report and a cancel of one job, from any processes, run one after the other and
// the second sees the first's outcome. Pieces are claimed with SKIP LOCKED: two processes never
// take the same one. Milliseconds are bigint, read back as float8 so they arrive as numbers.

// A committed cancel is announced on this channel (the ids it cancelled), so the process running a
// cancelled piece stops it at once.
const cancels = cancelledIdsChannel('syndicate_job_cancels', 'cancelled job ids');

const JOB_COLUMNS = `id, origin_session_id AS "originSessionId", syndicate, parent_job_id AS "parentJobId", depth, status,
  timeout_ms::float8 AS "timeoutMs", created_at::float8 AS "createdAt", ended_at::float8 AS "endedAt"`;
const pieceColumns = (p: string): string => `${p}.job_id AS "jobId", ${p}.piece_index AS "index", ${p}.agent, ${p}.request,
  ${p}.session_id AS "sessionId", ${p}.status, ${p}.answer, ${p}.error, ${p}.runner, ${p}.lease_expires_at::float8 AS "leaseExpiresAt", ${p}.attempts`;
const PIECE_COLUMNS = pieceColumns('background_pieces');
const REPORT_COLUMNS = `key, job_id AS "jobId", origin_session_id AS "originSessionId", syndicate, text,
  created_at::float8 AS "createdAt", delivered_at::float8 AS "deliveredAt"`;
const DREAM_COLUMNS = `id, syndicate, silo, session_id AS "sessionId", status, since::float8 AS since, started_at::float8 AS "startedAt",
  ended_at::float8 AS "endedAt", journal_path AS "journalPath", facts, sessions, error`;

async function lockedJob(client: pg.PoolClient, id: string): Promise<JobRecord | undefined> {
  return (await client.query<JobRecord>(`SELECT ${JOB_COLUMNS} FROM background_jobs WHERE id = $1 FOR UPDATE`, [id])).rows[0];
}

async function lockedPiece(client: pg.PoolClient, jobId: string, index: number): Promise<{ runner: string | null; status: string; jobStatus: string } | undefined> {
  // The job's row first: the same order as report and cancel, so they cannot deadlock.
  const job = await lockedJob(client, jobId);
  if (!job) return undefined;
  const { rows } = await client.query<{ runner: string | null; status: string }>(
    'SELECT runner, status FROM background_pieces WHERE job_id = $1 AND piece_index = $2 FOR UPDATE',
    [jobId, index],
  );
  return rows[0] && { ...rows[0], jobStatus: job.status };
}

export function createPostgresBackgroundJobs(db: Db): BackgroundJobStore {
  return {
    async create(job) {
      await db.transaction(async (client) => {
        await client.query(
          `INSERT INTO background_jobs (id, origin_session_id, syndicate, parent_job_id, depth, status, timeout_ms, created_at)
           VALUES ($1, $2, $3, $4, $5, 'running', $6, $7)`,
          [job.id, job.originSessionId, job.syndicate, job.parentJobId, job.depth, job.timeoutMs, job.createdAt],
        );
        await client.query(
          `INSERT INTO background_pieces (job_id, piece_index, agent, request, session_id, status)
           SELECT $1, piece.ordinal - 1, piece.agent, piece.request, piece.session_id, 'pending'
           FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS piece (agent, request, session_id, ordinal)`,
          [job.id, job.pieces.map((p) => p.agent), job.pieces.map((p) => p.request), job.pieces.map((p) => p.sessionId)],
        );
      });
      return { id: job.id, originSessionId: job.originSessionId, syndicate: job.syndicate, parentJobId: job.parentJobId, depth: job.depth, status: 'running', timeoutMs: job.timeoutMs, createdAt: job.createdAt, endedAt: null };
    },
    async get(id) {
      const [job] = await db.read<JobRecord>(`SELECT ${JOB_COLUMNS} FROM background_jobs WHERE id = $1`, [id]);
      if (!job) return undefined;
      return { job, pieces: await db.read<PieceRecord>(`SELECT ${PIECE_COLUMNS} FROM background_pieces WHERE job_id = $1 ORDER BY piece_index`, [id]) };
    },
    async list(query) {
      return db.read<JobRecord>(
        `SELECT ${JOB_COLUMNS} FROM background_jobs WHERE ($1::text IS NULL OR origin_session_id = $1) AND ($4::text IS NULL OR starts_with(origin_session_id, $4))
           AND ($2::text IS NULL OR status = $2)
         ORDER BY created_at DESC, id DESC LIMIT $3`,
        [query.originSessionId ?? null, query.status ?? null, query.limit, query.originPrefix ?? null],
      );
    },
    async claimPiece({ runner, syndicates, now, leaseMs, maxAttempts, piece }) {
      const { rows } = await db.write<PieceRecord>(
        `WITH claimable AS (
           SELECT p.job_id, p.piece_index FROM background_pieces AS p JOIN background_jobs AS j ON j.id = p.job_id
           WHERE j.status = 'running' AND p.attempts < $4 AND j.syndicate = ANY($5::text[]) AND (p.status = 'pending' OR (p.status = 'running' AND p.lease_expires_at <= $2))
             AND ($6::text IS NULL OR (p.job_id = $6 AND p.piece_index = $7))
           ORDER BY j.created_at, p.job_id, p.piece_index LIMIT 1 FOR UPDATE OF p SKIP LOCKED
         )
         UPDATE background_pieces AS p SET status = 'running', runner = $1, lease_expires_at = $2::bigint + $3::bigint, attempts = p.attempts + 1
         FROM claimable WHERE p.job_id = claimable.job_id AND p.piece_index = claimable.piece_index
         RETURNING ${pieceColumns('p')}`,
        [runner, now, leaseMs, maxAttempts, syndicates, piece?.jobId ?? null, piece?.index ?? null],
      );
      return rows[0];
    },
    async failExhausted(syndicates, now, maxAttempts, error) {
      const { rows } = await db.write<{ jobId: string }>(
        `UPDATE background_pieces AS p SET status = 'failed', error = $3, runner = NULL, lease_expires_at = NULL
         FROM background_jobs AS j WHERE j.id = p.job_id AND j.syndicate = ANY($4::text[]) AND j.status = 'running' AND p.status = 'running' AND p.lease_expires_at <= $1 AND p.attempts >= $2
         RETURNING p.job_id AS "jobId"`,
        [now, maxAttempts, error, syndicates],
      );
      return [...new Set(rows.map((row) => row.jobId))];
    },
    async heartbeat(jobId, index, runner, leaseExpiresAt) {
      return db.transaction(async (client) => {
        const holder = await lockedPiece(client, jobId, index);
        if (!holder || holder.jobStatus === 'cancelled' || holder.status === 'cancelled') return 'cancelled';
        if (holder.status !== 'running' || holder.runner !== runner) return 'lost';
        await client.query('UPDATE background_pieces SET lease_expires_at = $3 WHERE job_id = $1 AND piece_index = $2', [jobId, index, leaseExpiresAt]);
        return 'held';
      });
    },
    async endPiece(jobId, index, runner, outcome) {
      return db.transaction(async (client) => {
        const holder = await lockedPiece(client, jobId, index);
        if (!holder || holder.jobStatus !== 'running' || holder.status !== 'running' || holder.runner !== runner) return false;
        await client.query(
          'UPDATE background_pieces SET status = $3, answer = $4, error = $5, runner = NULL, lease_expires_at = NULL WHERE job_id = $1 AND piece_index = $2',
          [jobId, index, outcome.status, outcome.status === 'answered' ? outcome.answer : null, outcome.status === 'failed' ? outcome.error : null],
        );
        return true;
      });
    },
    async report(jobId, now, render) {
      return db.transaction(async (client) => {
        const job = await lockedJob(client, jobId);
        if (!job || job.status !== 'running') return undefined;
        const { rows: pieces } = await client.query<PieceRecord>(`SELECT ${PIECE_COLUMNS} FROM background_pieces WHERE job_id = $1 ORDER BY piece_index`, [jobId]);
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
        await client.query(
          'INSERT INTO background_reports (key, job_id, origin_session_id, syndicate, text, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
          [written.key, jobId, written.originSessionId, written.syndicate, written.text, now],
        );
        await client.query('UPDATE background_jobs SET status = $2, ended_at = $3 WHERE id = $1', [jobId, status, now]);
        return written;
      });
    },
    async cancel(jobId, now) {
      return db.transaction(async (client) => {
        if ((await lockedJob(client, jobId))?.status !== 'running') return [];
        const { rows } = await client.query<{ id: string }>(
          `WITH RECURSIVE tree (id) AS (SELECT $1::text COLLATE "C" UNION SELECT j.id FROM background_jobs AS j JOIN tree ON j.parent_job_id = tree.id),
           cancelled AS (
             UPDATE background_jobs AS j SET status = 'cancelled', ended_at = $2 FROM tree WHERE j.id = tree.id AND j.status = 'running'
             RETURNING j.id, j.depth, j.created_at
           ),
           pieces AS (
             UPDATE background_pieces AS p SET status = 'cancelled', runner = NULL, lease_expires_at = NULL
             FROM cancelled WHERE p.job_id = cancelled.id AND p.status IN ('pending', 'running')
           )
           SELECT id FROM cancelled ORDER BY depth, created_at`,
          [jobId, now],
        );
        const ids = rows.map((row) => row.id);
        await cancels.notify(client, ids);
        return ids;
      });
    },
    watchCancels(onCancel, onError) {
      return cancels.watch(db, onCancel, onError);
    },
    async undelivered() {
      return db.read<JobReport>(`SELECT ${REPORT_COLUMNS} FROM background_reports WHERE delivered_at IS NULL ORDER BY created_at, key`);
    },
    async markDelivered(key, now) {
      await db.write('UPDATE background_reports SET delivered_at = $2 WHERE key = $1 AND delivered_at IS NULL', [key, now]);
    },
  };
}

export function createPostgresDreamRuns(db: Db): DreamRunRecords {
  return {
    async start(run) {
      await db.write(
        `INSERT INTO dream_runs (id, syndicate, silo, session_id, status, since, started_at, runner, lease_expires_at) VALUES ($1, $2, $3, $4, 'running', $5, $6, $7, $8)`,
        [run.id, run.syndicate, run.silo, run.sessionId, run.since, run.startedAt, run.runner, run.leaseExpiresAt],
      );
    },
    async heartbeat(id, runner, leaseExpiresAt) {
      const { rowCount } = await db.write("UPDATE dream_runs SET lease_expires_at = $3 WHERE id = $1 AND runner = $2 AND status = 'running'", [id, runner, leaseExpiresAt]);
      return rowCount === 1;
    },
    async finish(id, runner, outcome) {
      const { rowCount } = await db.write(
        `UPDATE dream_runs SET status = $3, ended_at = $4, journal_path = $5, facts = $6, sessions = $7, error = $8, runner = NULL, lease_expires_at = NULL
         WHERE id = $1 AND runner = $2 AND status = 'running'`,
        [id, runner, outcome.status, outcome.endedAt, outcome.journalPath, outcome.facts, outcome.sessions, outcome.error],
      );
      return rowCount === 1;
    },
    async interruptExpired(now) {
      const { rows } = await db.write<DreamRunRecord>(
        `UPDATE dream_runs SET status = 'interrupted', error = $2, ended_at = $1, runner = NULL, lease_expires_at = NULL
         WHERE status = 'running' AND lease_expires_at <= $1 RETURNING ${DREAM_COLUMNS}`,
        [now, DREAM_INTERRUPTED_ERROR],
      );
      return rows;
    },
    async list(syndicate, silo, limit) {
      return db.read<DreamRunRecord>(`SELECT ${DREAM_COLUMNS} FROM dream_runs WHERE syndicate = $1 AND silo = $2 ORDER BY started_at DESC, id DESC LIMIT $3`, [syndicate, silo, limit]);
    },
  };
}
