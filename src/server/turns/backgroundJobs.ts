import { siloFor } from '../../core/silo.js';
import { openServerTurn } from '../../platform/serverTurn.js';
import { createJobRunner, MAX_JOB_DEPTH, type JobRunner, type JobRunnerOptions } from '../../scheduler/jobs/index.js';
import type { JobRecord } from '../../store/backgroundJobs.js';
import type { Store } from '../../store/store.js';
import type { ServerContext } from '../context.js';
import { userOfSession } from '../sessionAccess.js';
import { loadedNamed } from './lookups.js';
import type { SessionHub } from './sessionHub.js';
import { startUnattendedTurn } from './startTurn.js';
import type { TurnContext } from './turnContext.js';

// Background jobs in the server: this process runs pieces of the jobs of the syndicates it serves
// (each in its session `bg:<job>:<n>`, under the job's time limit, with the ledger and the long-term
// memory of the user whose turn started the job), and delivers a job's one report as a turn in the
// originating session through the session hub: queued behind a running turn like any message, so
// a client following the session sees it arrive live. On PostgreSQL the pieces go through the
// shared work queue (pg-boss), which every server process on the database takes them from.

/** Lease, polling and queue expiry of the runner (tests and several processes tune them). */
export type ServerJobOptions = Pick<JobRunnerOptions, 'runner' | 'leaseMs' | 'pollMs' | 'concurrency' | 'maxAttempts' | 'expiryMarginS'>;

/** The session whose turn started the job, or the job its piece was part of, up to the top. */
export async function rootSessionOf(store: Store, job: JobRecord): Promise<string> {
  let current = job;
  for (let hops = 0; current.parentJobId !== null && hops < MAX_JOB_DEPTH; hops++) {
    const parent = (await store.backgroundJobs.get(current.parentJobId))?.job;
    if (parent === undefined) break;
    current = parent;
  }
  return current.originSessionId;
}

/** The user whose turn started the job (or its top parent). */
async function userOfJob(store: Store, job: JobRecord): Promise<string> {
  const user = userOfSession(await rootSessionOf(store, job));
  if (user === undefined) throw new Error(`background job ${job.id} was not started from a user's session (a conversation, api:<user>:…, or a run of their task, task:<user>:…), so it has no user to run for`);
  return user;
}

/** Whether the session already holds the report's turn: delivered by a process that stopped before it recorded so. */
async function alreadyDelivered(store: Store, sessionId: string, text: string): Promise<boolean> {
  const events = await store.readEvents(sessionId);
  return events.some(({ event }) => event.type === 'turn-start' && event.input === text);
}

/** `turns`: the context report turns run in (the server's, whose background tools include this runner's). */
export async function serverJobRunner(ctx: ServerContext, hub: SessionHub, store: Store, turns: () => TurnContext, options: ServerJobOptions = {}): Promise<JobRunner> {
  const runner: JobRunner = createJobRunner({
    ...options,
    store,
    workQueue: await ctx.platform.workQueue(),
    warn: (message) => ctx.warn(`warning: ${message}`),
    syndicates: () => new Map(ctx.syndicates.list().flatMap((entry) => (entry.current ? [[entry.current.name, entry.current.compiled] as const] : []))),
    async pieceTurn(piece, job, compiled) {
      const silo = siloFor(compiled.name, await userOfJob(store, job));
      // A piece is not distilled into memory: its answer reaches the user's session in the report, which is.
      const server = await openServerTurn(ctx.platform, compiled, piece.sessionId, silo, async () => undefined);
      return { options: server.options, ended: (outcome) => server.ended(outcome.status === 'answered' ? 'completed' : 'failed') };
    },
    async deliverReport(sessionId, text, report) {
      const syndicate = loadedNamed(ctx, report.syndicate);
      if (!syndicate) throw new Error(`the syndicate '${report.syndicate}' is not loaded, so the report of ${report.jobId} waits until its file loads again`);
      if (await alreadyDelivered(store, sessionId, text)) return;
      const stored = await store.backgroundJobs.get(report.jobId);
      if (!stored) throw new Error(`background job ${report.jobId} is gone from the store, so its report cannot be delivered`);
      const request = { syndicate, sessionId, input: text, userId: await userOfJob(store, stored.job), newSession: false };
      const admission = startUnattendedTurn(turns(), hub, request);
      if (!admission.admitted) throw new Error(`the server is shutting down, so the report of ${report.jobId} is delivered when a server next starts`);
      await admission.turn.ended;
    },
  });
  return runner;
}
