import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { defineAgent } from '../../src/config/define.js';
import type { JobRunner, JobRunnerOptions } from '../../src/scheduler/jobs/index.js';
import { pieceKey, PIECES_QUEUE } from '../../src/scheduler/pgBoss/pieces.js';
import { jobIdFor, startWorkQueue, type WorkQueue } from '../../src/scheduler/pgBoss/workQueue.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import type { Store } from '../../src/store/store.js';
import { collect, compile, ofType } from '../runtime/fixtures.js';
import { POSTGRES_TESTS, usePostgresDatabase } from '../store/postgresCluster.js';
import { eventually, testRunner, type Delivered } from './jobsFixtures.js';

// Background jobs' pieces on the shared queue (scheduler/pgBoss/pieces.ts), each "process" a store
// handle, a pg-boss instance and a job runner of its own on one PostgreSQL database: every piece
// runs once however many processes take from the queue; a piece whose process died is offered
// again once its job expires, and runs in another; a cancel takes the pieces out of the queue.

const database = POSTGRES_TESTS ? usePostgresDatabase() : undefined;
const fail = (message: string): never => expect.fail(message);

const stores: Store[] = [];
const queues: WorkQueue[] = [];
const runners: JobRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((runner) => runner.close()));
  await Promise.all(queues.splice(0).map((queue) => queue.stop()));
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

const syndicate = compile(
  defineAgent('Chair', {
    model: 'scripted',
    file: 'test.yaml',
    tools: ['parallel_subtasks'],
    subagents: [defineAgent('Researcher', { model: 'scripted', script: [{ reply: 'found it', repeat: true }] })],
    script: [
      { match: 'please', tool_calls: [{ tool: 'parallel_subtasks', args: { tasks: Array.from({ length: 6 }, (_, i) => ({ agent: 'Researcher', request: `question ${i}` })), timeout_s: 1 } }], repeat: true },
      { match: '"job_id"', reply: 'Started them in the background.', repeat: true },
      { match: '[Background job', reply: 'Here is what the job found.', repeat: true },
    ],
  }),
);

/** One process on the database: its own store handle, pg-boss and runner (not started). */
async function processOn(delivered: Delivered[], options: Partial<JobRunnerOptions> = {}): Promise<{ store: Store; queue: WorkQueue; runner: JobRunner }> {
  const store = await openPostgresStore(database!());
  stores.push(store);
  const queue = await startWorkQueue(database!(), fail);
  queues.push(queue);
  const runner = testRunner(store, syndicate, delivered, { workQueue: queue, leaseMs: 200, pollMs: 100, expiryMarginS: 1, ...options });
  runners.push(runner);
  return { store, queue, runner };
}

/** Starts the job through the Chair's turn in a new session; resolves to the session and the job's id. */
async function startJob(process: { store: Store; runner: JobRunner }): Promise<{ sessionId: string; jobId: string }> {
  const sessionId = `session-${randomUUID()}`;
  const events = await collect(syndicate, { input: 'please look into these', sessionId, store: process.store, background: process.runner });
  return { sessionId, jobId: (ofType(events, 'tool-result')[0]?.output as { job_id: string }).job_id };
}

describe.runIf(POSTGRES_TESTS)('background pieces on the shared queue (pg-boss)', () => {
  it('runs each piece once across two processes taking from the queue, and delivers one report', async () => {
    const delivered: Delivered[] = [];
    const first = await processOn(delivered);
    const second = await processOn(delivered);
    first.runner.start();
    second.runner.start();

    const { sessionId, jobId } = await startJob(first);
    await eventually(async () => delivered.length > 0, 'the report is delivered', 30_000);
    await Promise.all([first.runner.idle(), second.runner.idle()]);

    const stored = (await first.store.backgroundJobs.get(jobId))!;
    expect(stored.job.status).toBe('reported');
    expect(stored.pieces.map((piece) => [piece.status, piece.attempts])).toEqual(Array.from({ length: 6 }, () => ['answered', 1]));
    expect(delivered.map((report) => report.sessionId)).toEqual([sessionId]);
    const reportTurns = (await first.store.readEvents(sessionId)).filter(({ event }) => event.type === 'turn-start' && event.input.startsWith('[Background job'));
    expect(reportTurns).toHaveLength(1);
  }, 60_000);

  it('runs a piece in another process once the job of the process that died running it expires', async () => {
    const delivered: Delivered[] = [];
    const dead = await processOn(delivered);
    const { sessionId, jobId } = await startJob(dead);
    // The process that dies: it takes every piece's job and claims the pieces in the store, then stops without a word.
    const taken = await dead.queue.boss.fetch(PIECES_QUEUE, { batchSize: 10 });
    expect(taken).toHaveLength(6);
    for (let index = 0; index < 6; index++) {
      expect(await dead.store.backgroundJobs.claimPiece({ runner: 'dead', syndicates: [syndicate.name], now: Date.now(), leaseMs: 200, maxAttempts: 2, piece: { jobId, index } })).toBeDefined();
    }
    await dead.queue.stop();

    // Only the dead process's leases need to expire soon; the live one's outlasts a loaded machine's
    // stalls, or its own piece, at its last allowed claim, could be failed as abandoned while it runs.
    const live = await processOn(delivered, { leaseMs: 2_000 });
    live.runner.start();
    // What pg-boss's maintenance does every 30 s: jobs taken longer ago than their expiry are offered again.
    await eventually(async () => {
      await live.queue.boss.expire();
      return delivered.length > 0;
    }, 'the live process runs the pieces and reports', 30_000);
    await live.runner.idle();

    const stored = (await live.store.backgroundJobs.get(jobId))!;
    expect(stored.pieces.map((piece) => [piece.status, piece.answer, piece.attempts])).toEqual(Array.from({ length: 6 }, () => ['answered', 'found it', 2]));
    expect(delivered.map((report) => report.sessionId)).toEqual([sessionId]);
  }, 60_000);

  it('cancels the pieces of a cancelled job in the queue, so no process takes them', async () => {
    const idle = await processOn([]);
    const { jobId } = await startJob(idle);

    expect(await idle.runner.cancel(jobId)).toEqual([jobId]);

    const states = await Promise.all(Array.from({ length: 6 }, async (_, index) => (await idle.queue.boss.getJobById(PIECES_QUEUE, jobIdFor(pieceKey({ jobId, index }))))?.state));
    expect(states).toEqual(Array.from({ length: 6 }, () => 'cancelled'));
    expect(await idle.queue.boss.fetch(PIECES_QUEUE)).toEqual([]);
  }, 60_000);
});
