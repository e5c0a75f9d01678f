import { z } from 'zod';
import type { JobRunner } from '../../scheduler/jobs/index.js';
import type { JobRecord, PieceRecord } from '../../store/backgroundJobs.js';
import type { Store } from '../../store/store.js';
import type { ApiCaller } from '../caller.js';
import { defineRoute, fail, json, type AnyRoute } from '../http/route.js';
import { maySeeSession, sessionPrefixOf } from '../sessionAccess.js';
import { rootSessionOf } from './backgroundJobs.js';

// The caller's background jobs: list, read one with its pieces, cancel one (with the jobs its
// pieces started; a cancelled job never reports). A job belongs to whoever owns the session its
// turn (or its top parent's) ran in; another user's job answers 404 like a missing one.

const DEFAULT_PAGE = 50;
const MAX_PAGE = 200;

const jobSchema = z.object({
  id: z.string(),
  syndicate: z.string(),
  originSessionId: z.string().describe('The session the report turn runs in: a session of yours, or the piece session of the parent job'),
  parentJobId: z.string().nullable(),
  depth: z.number().int(),
  status: z.enum(['running', 'reported', 'failed', 'cancelled']),
  timeoutMs: z.number().int().describe("Each piece's time limit"),
  createdAt: z.number().int().describe('Milliseconds since the epoch'),
  endedAt: z.number().int().nullable(),
});

const pieceSchema = z.object({
  index: z.number().int(),
  agent: z.string(),
  request: z.string(),
  sessionId: z.string().describe('The session the piece runs in'),
  status: z.enum(['pending', 'running', 'answered', 'failed', 'cancelled']),
  answer: z.string().nullable(),
  error: z.string().nullable(),
  attempts: z.number().int().describe('How many times a server process claimed it'),
});

function jobOf(job: JobRecord): z.infer<typeof jobSchema> {
  const { id, syndicate, originSessionId, parentJobId, depth, status, timeoutMs, createdAt, endedAt } = job;
  return { id, syndicate, originSessionId, parentJobId, depth, status, timeoutMs, createdAt, endedAt };
}

function pieceOf(piece: PieceRecord): z.infer<typeof pieceSchema> {
  const { index, agent, request, sessionId, status, answer, error, attempts } = piece;
  return { index, agent, request, sessionId, status, answer, error, attempts };
}

const notFound = (id: string) => fail(404, `there is no background job '${id}' of yours; list yours with GET /api/v1/background-jobs`);

const idParams = z.object({ id: z.string().min(1).max(200) });

export function jobRoutes(store: Store, runner: JobRunner): AnyRoute[] {
  const visible = async (caller: ApiCaller, id: string) => {
    const stored = await store.backgroundJobs.get(id);
    return stored !== undefined && maySeeSession(caller, await rootSessionOf(store, stored.job)) ? stored : undefined;
  };
  return [
    defineRoute({
      method: 'get',
      path: '/background-jobs',
      operationId: 'listBackgroundJobs',
      summary: 'The background jobs your turns started, newest first',
      description: 'Jobs started by delegate_background or parallel_subtasks in your sessions. Jobs that their pieces started are read with GET /background-jobs/{id}.',
      tag: 'Background jobs',
      access: 'viewer',
      query: z.object({
        status: z.enum(['running', 'reported', 'failed', 'cancelled']).optional(),
        limit: z.coerce.number().int().min(1).max(MAX_PAGE).default(DEFAULT_PAGE),
      }),
      responses: { 200: { description: 'Your jobs', schema: z.object({ jobs: z.array(jobSchema) }) } },
      async handle({ query, caller }) {
        const jobs = await store.backgroundJobs.list({ originPrefix: sessionPrefixOf(caller.userId), status: query.status, limit: query.limit });
        return json({ jobs: jobs.map(jobOf) });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/background-jobs/:id',
      operationId: 'getBackgroundJob',
      summary: 'One background job with its pieces',
      tag: 'Background jobs',
      access: 'viewer',
      params: idParams,
      responses: { 200: { description: 'The job', schema: jobSchema.extend({ pieces: z.array(pieceSchema) }) }, 404: { description: 'No such job of yours' } },
      async handle({ params, caller }) {
        const stored = await visible(caller, params.id);
        if (!stored) return notFound(params.id);
        return json({ ...jobOf(stored.job), pieces: stored.pieces.map(pieceOf) });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/background-jobs/:id/cancel',
      operationId: 'cancelBackgroundJob',
      summary: 'Cancels a running background job and the jobs its pieces started; it never reports',
      description: 'Pieces running in any server process stop (on PostgreSQL at once; on SQLite at their next heartbeat in another process). `cancelled` is false when the job had already ended.',
      tag: 'Background jobs',
      access: 'member',
      params: idParams,
      responses: {
        202: { description: 'Cancelled (or already ended)', schema: z.object({ cancelled: z.boolean(), jobs: z.array(z.string()).describe('The ids cancelled, this job first') }) },
        404: { description: 'No such job of yours' },
      },
      async handle({ params, caller }) {
        if (!(await visible(caller, params.id))) return notFound(params.id);
        const cancelled = await runner.cancel(params.id);
        return json({ cancelled: cancelled.length > 0, jobs: cancelled }, 202);
      },
    }),
  ];
}
