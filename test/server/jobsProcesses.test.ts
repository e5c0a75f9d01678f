import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { pieceKey, PIECES_QUEUE } from '../../src/scheduler/pgBoss/pieces.js';
import { jobIdFor, startWorkQueue, type WorkQueue } from '../../src/scheduler/pgBoss/workQueue.js';
import { openStore } from '../../src/store/openStore.js';
import type { Store } from '../../src/store/store.js';
import { killed } from '../a2a/serverProcess.js';
import { eventually } from '../scheduler/jobsFixtures.js';
import { POSTGRES_TESTS, usePostgresCluster } from '../store/postgresCluster.js';
import { postTurn, readAll } from './turns/harness.js';

// Real server processes on one PostgreSQL (fixtures/serve-jobs-process.mjs), sharing background
// pieces through pg-boss: the process running a piece is killed with SIGKILL; once the piece's
// queue job expires the queue offers it again and another process runs it, or, when that process is
// killed too, the piece ends failed (a piece runs at most twice); either way the job's report turn
// is delivered exactly once. A cancel sent to one process stops the piece running in the other at
// once (a notification), long before its next heartbeat.

const child = fileURLToPath(new URL('./fixtures/serve-jobs-process.mjs', import.meta.url));
const built = fileURLToPath(new URL('../../dist/server/turns/turnService.js', import.meta.url));
const cluster = POSTGRES_TESTS ? usePostgresCluster() : undefined;

// The time limit of the pieces the kill tests start: far longer than a kill takes, so the killed
// process never ends the piece itself; its queue job expires 1 s after it (the fixture's margin).
const PIECE_TIMEOUT_S = 10;

const procs: ChildProcess[] = [];
let reader: Store | undefined;
let maintenance: WorkQueue | undefined;
afterEach(async () => {
  await Promise.all(procs.splice(0).map((proc) => killed(proc)));
  await maintenance?.stop();
  maintenance = undefined;
  await reader?.close();
  reader = undefined;
});

/** Starts a server process; `hold`: its pieces never end; `answer`: they answer at once. */
function serverProcess(store: string, mode: 'hold' | 'answer', leaseMs = 1_000, timeoutS = PIECE_TIMEOUT_S): Promise<{ proc: ChildProcess; api: string }> {
  if (!existsSync(built)) throw new Error('dist/ is missing: run `npm run build` (npm test does) before this test');
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [child, store, mode, String(leaseMs), String(timeoutS)], { stdio: ['ignore', 'pipe', 'pipe'] });
    procs.push(proc);
    let stderr = '';
    proc.stderr!.on('data', (chunk) => (stderr += chunk));
    proc.stdout!.on('data', (chunk: Buffer) => {
      const match = /LISTENING (\S+)/.exec(chunk.toString());
      if (match) resolve({ proc, api: match[1]! });
    });
    proc.on('exit', () => reject(new Error(`the server process ended before listening: ${stderr}`)));
  });
}

/** The report turns in the session (their input is the report's text), and every turn's output. */
async function turnsOf(store: Store, sessionId: string): Promise<{ reports: string[]; outputs: unknown[] }> {
  const events = (await store.readEvents(sessionId)).map(({ event }) => event);
  return {
    reports: events.flatMap((event) => (event.type === 'turn-start' && event.input.startsWith('[Background job') ? [event.input] : [])),
    outputs: events.flatMap((event) => (event.type === 'turn-end' ? [event.output] : [])),
  };
}

/** Starts the job in a `hold` process; resolves once that process runs its piece. */
async function startHeldJob(url: string): Promise<{ first: { proc: ChildProcess; api: string }; store: Store; sessionId: string; jobId: string }> {
  const first = await serverProcess(url, 'hold');
  const response = await postTurn(first.api, { syndicate: 'desk', message: 'please look into it' });
  expect((await readAll(response)).at(-1)?.data).toMatchObject({ type: 'turn-end', status: 'completed', output: 'Started it in the background.' });
  const sessionId = response.headers.get('x-session-id')!;
  reader = await openStore(url);
  const store = reader;
  const [job] = await store.backgroundJobs.list({ originSessionId: sessionId, limit: 1 });
  await eventually(async () => (await store.backgroundJobs.get(job!.id))?.pieces[0]?.status === 'running', 'the first process runs the piece', 30_000);
  return { first, store, sessionId, jobId: job!.id };
}

/**
 * Resolves once `check` holds, expiring the queue's overdue jobs meanwhile: what pg-boss's
 * maintenance does every 30 s in each server, done here so the test need not wait for its turn.
 */
async function expiringUntil(url: string, check: () => Promise<boolean>, what: string): Promise<void> {
  maintenance ??= await startWorkQueue(url, (message) => expect.fail(message));
  const queue = maintenance;
  await eventually(async () => {
    await queue.boss.expire();
    return check();
  }, what, 45_000);
}

describe.runIf(POSTGRES_TESTS)('background jobs on server processes sharing PostgreSQL', () => {
  it('a piece whose process was killed runs in another once its queue job expires, and the report is delivered exactly once', async () => {
    const url = await cluster!().createDatabase();
    const { first, store, sessionId, jobId } = await startHeldJob(url);
    await serverProcess(url, 'answer');

    await killed(first.proc);
    await expiringUntil(url, async () => (await store.backgroundJobs.get(jobId))?.job.status === 'reported' && (await store.backgroundJobs.undelivered()).length === 0, 'the other process runs the piece and reports');

    expect((await store.backgroundJobs.get(jobId))?.pieces[0]).toMatchObject({ status: 'answered', answer: 'found it', attempts: 2 });
    // Several of the survivor's polls later (each 200 ms, the lease 1 s), still one report turn.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const { reports, outputs } = await turnsOf(store, sessionId);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toContain('found it');
    expect(outputs).toEqual(['Started it in the background.', 'Here is what the job found.']);
  }, 120_000);

  it('a piece whose second process was killed too ends failed, and the report of its failure is delivered exactly once', async () => {
    const url = await cluster!().createDatabase();
    const { first, store, sessionId, jobId } = await startHeldJob(url);
    const second = await serverProcess(url, 'hold');
    await killed(first.proc);
    await expiringUntil(url, async () => (await store.backgroundJobs.get(jobId))?.pieces[0]?.attempts === 2, 'the second process runs the piece');
    await serverProcess(url, 'answer');

    await killed(second.proc);
    await eventually(async () => (await store.backgroundJobs.get(jobId))?.job.status === 'failed' && (await store.backgroundJobs.undelivered()).length === 0, 'the last process fails the piece and reports', 45_000);

    expect((await store.backgroundJobs.get(jobId))?.pieces[0]).toMatchObject({ status: 'failed', error: 'the process running it stopped, 2 times (its lease expired)', attempts: 2 });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const { reports, outputs } = await turnsOf(store, sessionId);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toContain('Failed: the process running it stopped');
    expect(outputs).toEqual(['Started it in the background.', 'Here is what the job found.']);
  }, 120_000);

  it('a cancel sent to one process stops the piece running in the other at once, not at its next heartbeat, and cancels its queue job', async () => {
    const url = await cluster!().createDatabase();
    // A minute's lease: the runner's heartbeat (a third of it) cannot be what stops the piece within the wait below.
    const running = await serverProcess(url, 'hold', 60_000, 600);
    const response = await postTurn(running.api, { syndicate: 'desk', message: 'please look into it' });
    await readAll(response);
    reader = await openStore(url);
    const store = reader;
    const [job] = await store.backgroundJobs.list({ originSessionId: response.headers.get('x-session-id')!, limit: 1 });
    await eventually(async () => (await store.backgroundJobs.get(job!.id))?.pieces[0]?.status === 'running', 'the first process runs the piece', 30_000);
    // Started once the first runs the piece: the queue could have offered the piece to it otherwise.
    const other = await serverProcess(url, 'answer', 60_000, 600);
    const pieceSession = (await store.backgroundJobs.get(job!.id))!.pieces[0]!.sessionId;

    const cancel = await fetch(`${other.api}/background-jobs/${job!.id}/cancel`, { method: 'POST', headers: { authorization: 'Bearer alice-token' } });

    expect(await cancel.json()).toEqual({ cancelled: true, jobs: [job!.id] });
    await eventually(async () => (await store.readEvents(pieceSession)).some(({ event }) => event.type === 'turn-end' && event.status === 'cancelled'), "the piece's turn ends cancelled in the first process");
    expect(running.proc.exitCode).toBeNull();
    maintenance = await startWorkQueue(url, (message) => expect.fail(message));
    const queued = await maintenance.boss.getJobById(PIECES_QUEUE, jobIdFor(pieceKey({ jobId: job!.id, index: 0 })));
    // Cancelled by the cancelling process, or completed first by the one whose piece stopped: either way never offered again.
    expect(['cancelled', 'completed']).toContain(queued?.state);
  }, 60_000);
});
