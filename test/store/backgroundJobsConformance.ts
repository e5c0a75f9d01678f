import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewJob, PieceRecord } from '../../src/store/backgroundJobs.js';
import type { Store } from '../../src/store/store.js';

// The behaviour every BackgroundJobStore and DreamRunRecords must show, against the Store
// interface so PostgreSQL runs it unchanged. Two stores opened on one database stand for two
// processes. Each test uses fresh job ids and ends the jobs it leaves claimable, since claims take
// the oldest claimable piece of any job.

const LEASE = 1_000;

function newJob(pieces: number, overrides: Partial<NewJob> = {}): NewJob {
  const id = `job-${randomUUID()}`;
  return {
    id,
    originSessionId: `session-${randomUUID()}`,
    syndicate: 'team',
    parentJobId: null,
    depth: 1,
    timeoutMs: 600_000,
    // Far in the past, so this test's pieces are the oldest claimable and other tests' jobs wait.
    createdAt: 1,
    pieces: Array.from({ length: pieces }, (_, index) => ({ agent: 'researcher', request: `question ${index}`, sessionId: `bg:${id}:${index}` })),
    ...overrides,
  };
}

const render = (_job: unknown, pieces: readonly PieceRecord[]): string => pieces.map((piece) => `${piece.index}: ${piece.answer ?? piece.error}`).join('\n');

export function describeBackgroundJobsConformance(name: string, open: () => Promise<Store>, cleanup: () => Promise<void> = async () => undefined): void {
  describe(`${name} background jobs`, () => {
    let store: Store;
    let other: Store;
    let now: number;

    beforeEach(async () => {
      store = await open();
      other = await open();
      now = 1_000_000 + Math.floor(Math.random() * 1_000_000);
    });
    afterEach(async () => {
      await Promise.all([store.close(), other.close()]);
    });
    afterAll(cleanup);

    /** Claims and ends every piece of the job (claims go oldest job first, so only this one's). */
    async function runAll(jobId: string, outcome: (index: number) => { status: 'answered'; answer: string } | { status: 'failed'; error: string }): Promise<void> {
      const stored = (await store.backgroundJobs.get(jobId))!;
      for (const piece of stored.pieces) {
        await store.backgroundJobs.endPiece(jobId, piece.index, 'runner-a', outcome(piece.index)).then((ended) => {
          if (!ended) throw new Error(`piece ${piece.index} was not held by runner-a`);
        });
      }
    }

    /** Claims the job's pieces; a piece another test left claimable is claimed too and left alone. */
    async function claimAll(jobId: string, runner = 'runner-a'): Promise<PieceRecord[]> {
      const claimed: PieceRecord[] = [];
      for (;;) {
        const piece = await store.backgroundJobs.claimPiece({ runner, syndicates: ['team'], now, leaseMs: LEASE, maxAttempts: 2 });
        if (!piece) return claimed;
        if (piece.jobId === jobId) claimed.push(piece);
      }
    }

    it('stores a job running with its pieces pending, in the order they were asked for', async () => {
      const job = newJob(2);
      await store.backgroundJobs.create(job);

      const stored = await other.backgroundJobs.get(job.id);

      expect(stored?.job).toMatchObject({ id: job.id, status: 'running', depth: 1, parentJobId: null, endedAt: null, timeoutMs: 600_000 });
      expect(stored?.pieces.map((piece) => [piece.index, piece.request, piece.status, piece.sessionId])).toEqual([
        [0, 'question 0', 'pending', `bg:${job.id}:0`],
        [1, 'question 1', 'pending', `bg:${job.id}:1`],
      ]);
      await store.backgroundJobs.cancel(job.id, now);
    });

    it('gives each piece to one process only', async () => {
      const job = newJob(3);
      await store.backgroundJobs.create(job);

      const claims = await Promise.all(
        Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? store : other).backgroundJobs.claimPiece({ runner: `runner-${i}`, syndicates: ['team'], now, leaseMs: LEASE, maxAttempts: 2 })),
      );

      const taken = claims.filter((piece) => piece?.jobId === job.id).map((piece) => piece!.index);
      expect(taken.sort()).toEqual([0, 1, 2]);
      await store.backgroundJobs.cancel(job.id, now);
    });

    it('claims the piece named in the claim, and nothing when that piece is held or ended', async () => {
      const job = newJob(3);
      await store.backgroundJobs.create(job);
      const named = { runner: 'runner-a', syndicates: ['team'], now, leaseMs: LEASE, maxAttempts: 2, piece: { jobId: job.id, index: 2 } };

      const claimed = await store.backgroundJobs.claimPiece(named);
      const whileHeld = await other.backgroundJobs.claimPiece({ ...named, runner: 'runner-b' });
      await store.backgroundJobs.endPiece(job.id, 2, 'runner-a', { status: 'answered', answer: 'two' });
      const onceEnded = await other.backgroundJobs.claimPiece({ ...named, runner: 'runner-b', now: now + LEASE });

      expect(claimed).toMatchObject({ jobId: job.id, index: 2, runner: 'runner-a', attempts: 1 });
      expect(whileHeld).toBeUndefined();
      expect(onceEnded).toBeUndefined();
      expect((await store.backgroundJobs.get(job.id))?.pieces.map((piece) => piece.status)).toEqual(['pending', 'pending', 'answered']);
      await store.backgroundJobs.cancel(job.id, now);
    });

    it('claims only pieces of the syndicates the process serves', async () => {
      const job = newJob(1, { syndicate: 'elsewhere' });
      await store.backgroundJobs.create(job);

      const claimed = await claimAll(job.id);
      const served = await other.backgroundJobs.claimPiece({ runner: 'runner-b', syndicates: ['elsewhere'], now, leaseMs: LEASE, maxAttempts: 2 });

      expect(claimed).toEqual([]);
      expect(served).toMatchObject({ jobId: job.id, runner: 'runner-b' });
      await store.backgroundJobs.cancel(job.id, now);
    });

    it('lets another process take over a piece whose lease expired, and fences the first one out', async () => {
      const job = newJob(1);
      await store.backgroundJobs.create(job);
      await claimAll(job.id, 'runner-a');

      const retaken = await other.backgroundJobs.claimPiece({ runner: 'runner-b', syndicates: ['team'], now: now + LEASE, leaseMs: LEASE, maxAttempts: 2 });

      expect(retaken).toMatchObject({ jobId: job.id, runner: 'runner-b', attempts: 2 });
      expect(await store.backgroundJobs.heartbeat(job.id, 0, 'runner-a', now + 2 * LEASE)).toBe('lost');
      expect(await store.backgroundJobs.endPiece(job.id, 0, 'runner-a', { status: 'answered', answer: 'late' })).toBe(false);
      expect(await other.backgroundJobs.heartbeat(job.id, 0, 'runner-b', now + 3 * LEASE)).toBe('held');
      await store.backgroundJobs.cancel(job.id, now);
    });

    it('fails a piece whose lease expired after its last allowed attempt', async () => {
      const job = newJob(1);
      await store.backgroundJobs.create(job);
      await claimAll(job.id);
      await other.backgroundJobs.claimPiece({ runner: 'runner-b', syndicates: ['team'], now: now + LEASE, leaseMs: LEASE, maxAttempts: 2 });

      const touched = await store.backgroundJobs.failExhausted(['team'], now + 2 * LEASE, 2, 'the process running it stopped');

      expect(touched).toContain(job.id);
      expect((await store.backgroundJobs.get(job.id))?.pieces[0]).toMatchObject({ status: 'failed', error: 'the process running it stopped', runner: null });
    });

    it('writes no report while a piece is still running', async () => {
      const job = newJob(2);
      await store.backgroundJobs.create(job);
      await claimAll(job.id);
      await store.backgroundJobs.endPiece(job.id, 0, 'runner-a', { status: 'answered', answer: 'one' });

      expect(await store.backgroundJobs.report(job.id, now, render)).toBeUndefined();
      expect((await store.backgroundJobs.get(job.id))?.job.status).toBe('running');
      await store.backgroundJobs.cancel(job.id, now);
    });

    it('writes the report once, under its key, and marks the job reported', async () => {
      const job = newJob(2);
      await store.backgroundJobs.create(job);
      await claimAll(job.id);
      await runAll(job.id, (index) => (index === 0 ? { status: 'answered', answer: 'one' } : { status: 'failed', error: 'boom' }));

      const first = await store.backgroundJobs.report(job.id, now, render);
      const second = await other.backgroundJobs.report(job.id, now, render);

      expect(first).toMatchObject({ key: `report:${job.id}`, text: '0: one\n1: boom', originSessionId: job.originSessionId, deliveredAt: null });
      expect(second).toBeUndefined();
      expect((await store.backgroundJobs.get(job.id))?.job).toMatchObject({ status: 'reported', endedAt: now });
    });

    it('marks a job whose every piece failed as failed, still with its report', async () => {
      const job = newJob(1);
      await store.backgroundJobs.create(job);
      await claimAll(job.id);
      await runAll(job.id, () => ({ status: 'failed', error: 'timed out' }));

      expect(await store.backgroundJobs.report(job.id, now, render)).toMatchObject({ text: '0: timed out' });
      expect((await store.backgroundJobs.get(job.id))?.job.status).toBe('failed');
    });

    it('reports or cancels a job, never both, when processes try both at once', async () => {
      for (let round = 0; round < 10; round++) {
        const job = newJob(1);
        await store.backgroundJobs.create(job);
        await claimAll(job.id);
        await runAll(job.id, () => ({ status: 'answered', answer: 'done' }));

        const [reported, reportedToo, cancelled] = await Promise.all([
          store.backgroundJobs.report(job.id, now, render),
          other.backgroundJobs.report(job.id, now, render),
          (round % 2 === 0 ? other : store).backgroundJobs.cancel(job.id, now),
        ]);

        const reports = [reported, reportedToo].filter((report) => report !== undefined);
        const status = (await store.backgroundJobs.get(job.id))!.job.status;
        expect(reports.length + (cancelled.length > 0 ? 1 : 0)).toBe(1);
        expect(status).toBe(reports.length === 1 ? 'reported' : 'cancelled');
      }
    });

    it('cancels a job with the jobs started from its pieces, to any depth, and their unfinished pieces', async () => {
      const parent = newJob(1);
      const child = newJob(2, { parentJobId: parent.id, depth: 2, createdAt: 2 });
      const grandchild = newJob(1, { parentJobId: child.id, depth: 3, createdAt: 3 });
      const unrelated = newJob(1, { createdAt: 4 });
      for (const job of [parent, child, grandchild, unrelated]) await store.backgroundJobs.create(job);

      const cancelled = await other.backgroundJobs.cancel(parent.id, now);

      expect(cancelled).toEqual([parent.id, child.id, grandchild.id]);
      expect((await store.backgroundJobs.get(grandchild.id))?.pieces.map((piece) => piece.status)).toEqual(['cancelled']);
      expect((await store.backgroundJobs.get(unrelated.id))?.job.status).toBe('running');
      expect(await store.backgroundJobs.report(parent.id, now, render)).toBeUndefined();
      expect(await store.backgroundJobs.cancel(parent.id, now)).toEqual([]);
      await store.backgroundJobs.cancel(unrelated.id, now);
    });

    it('tells a running piece its job was cancelled, and refuses its outcome', async () => {
      const job = newJob(1);
      await store.backgroundJobs.create(job);
      await claimAll(job.id);
      await other.backgroundJobs.cancel(job.id, now);

      expect(await store.backgroundJobs.heartbeat(job.id, 0, 'runner-a', now + LEASE)).toBe('cancelled');
      expect(await store.backgroundJobs.endPiece(job.id, 0, 'runner-a', { status: 'answered', answer: 'too late' })).toBe(false);
    });

    it('lists a session’s jobs newest first, filtered by status', async () => {
      const older = newJob(1, { createdAt: 10 });
      const newer = newJob(1, { originSessionId: older.originSessionId, createdAt: 20 });
      await store.backgroundJobs.create(older);
      await store.backgroundJobs.create(newer);
      await store.backgroundJobs.cancel(older.id, now);

      const all = await other.backgroundJobs.list({ originSessionId: older.originSessionId, limit: 10 });
      const running = await other.backgroundJobs.list({ originSessionId: older.originSessionId, status: 'running', limit: 10 });

      expect(all.map((job) => job.id)).toEqual([newer.id, older.id]);
      expect(running.map((job) => job.id)).toEqual([newer.id]);
      await store.backgroundJobs.cancel(newer.id, now);
    });

    it('lists the jobs whose origin session starts with a prefix, and no others', async () => {
      const prefix = `api:${randomUUID()}:`;
      const mine = newJob(1, { originSessionId: `${prefix}one` });
      const also = newJob(1, { originSessionId: `${prefix}two`, createdAt: 5 });
      const theirs = newJob(1, { originSessionId: `${prefix.slice(0, -1)}x:one` });
      for (const job of [mine, also, theirs]) await store.backgroundJobs.create(job);

      const listed = await other.backgroundJobs.list({ originPrefix: prefix, limit: 10 });

      expect(listed.map((job) => job.id)).toEqual([also.id, mine.id]);
      for (const job of [mine, also, theirs]) await store.backgroundJobs.cancel(job.id, now);
    });

    it('keeps a report undelivered until it is marked delivered', async () => {
      const job = newJob(1);
      await store.backgroundJobs.create(job);
      await claimAll(job.id);
      await runAll(job.id, () => ({ status: 'answered', answer: 'done' }));
      const report = (await store.backgroundJobs.report(job.id, now, render))!;

      expect((await other.backgroundJobs.undelivered()).map((r) => r.key)).toContain(report.key);
      await other.backgroundJobs.markDelivered(report.key, now + 1);
      expect((await store.backgroundJobs.undelivered()).map((r) => r.key)).not.toContain(report.key);
    });

    it('records dream runs per silo, newest first, with their outcome', async () => {
      const silo = `team--${randomUUID().slice(0, 8)}`;
      await store.dreamRuns.start({ id: `${silo}-1`, syndicate: 'team', silo, sessionId: 'dream:1', since: 0, startedAt: 100, runner: 'runner-a', leaseExpiresAt: 1_100 });
      await store.dreamRuns.finish(`${silo}-1`, 'runner-a', { status: 'answered', endedAt: 150, journalPath: 'journal/2026-12-01.md', facts: 2, sessions: 3, error: null });
      await store.dreamRuns.start({ id: `${silo}-2`, syndicate: 'team', silo, sessionId: 'dream:2', since: 100, startedAt: 200, runner: 'runner-a', leaseExpiresAt: 1_200 });

      const runs = await other.dreamRuns.list('team', silo, 10);

      expect(runs.map((run) => [run.id, run.status])).toEqual([[`${silo}-2`, 'running'], [`${silo}-1`, 'answered']]);
      expect(runs[1]).toMatchObject({ since: 0, startedAt: 100, endedAt: 150, journalPath: 'journal/2026-12-01.md', facts: 2, sessions: 3, error: null });
      expect(await other.dreamRuns.list('team', 'someone-else', 10)).toEqual([]);
    });
  });
}
