import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { declaredTaskId, INTERRUPTED_DETAIL, MAX_ACTIVE_TASKS, type NewTask } from '../../src/store/schedules.js';
import type { Store } from '../../src/store/store.js';

// The behaviour every ScheduleStore must show, against the Store interface so PostgreSQL runs it
// unchanged. Two stores opened on one database stand for two processes. Each test uses a syndicate
// of its own, so tests never see each other's tasks.

const LEASE = 1_000;

function newTask(syndicate: string, overrides: Partial<NewTask> = {}): NewTask {
  return {
    id: randomUUID(),
    syndicate,
    name: `task-${randomUUID().slice(0, 8)}`,
    cron: '*/2 * * * * *',
    timezone: 'UTC',
    at: null,
    message: 'Brief me on what changed overnight.',
    session: 'new',
    owner: { kind: 'user', id: 'ana' },
    runAs: 'ana',
    requestedBy: null,
    origin: 'runtime',
    catchUp: 'none',
    createdAt: 1_000,
    ...overrides,
  };
}

export function describeSchedulesConformance(name: string, open: () => Promise<Store>, cleanup: () => Promise<void> = async () => undefined): void {
  describe(`${name} schedules`, () => {
    let store: Store;
    let other: Store;
    let syndicate: string;
    const now = 5_000_000;

    beforeEach(async () => {
      store = await open();
      other = await open();
      syndicate = `team-${randomUUID().slice(0, 8)}`;
    });
    afterEach(async () => {
      await Promise.all([store.close(), other.close()]);
    });
    afterAll(cleanup);

    const claim = (target: Store, taskId: string, scheduledFor: number, runner = 'runner-a', at = now) =>
      target.schedules.claim({ taskId, scheduledFor, runner, now: at, leaseMs: LEASE, sessionId: `task:${taskId}:${scheduledFor}` });

    it('stores a task active, with everything it was given, for every process to read', async () => {
      const task = newTask(syndicate, { session: { fixed: 'api:ana:brief' }, owner: { kind: 'agent', id: 'planner' }, requestedBy: 'api:ana:chat', catchUp: 'last', timezone: 'Europe/Lisbon' });

      const added = await store.schedules.add(task);

      expect(added).toMatchObject({ ok: true });
      expect(await other.schedules.get(task.id)).toEqual({ ...task, active: true, lastScheduledFor: null });
      expect((await other.schedules.list([syndicate])).map((t) => t.id)).toEqual([task.id]);
    });

    it('refuses a second active task with the same name in a syndicate, and accepts it once the first is deactivated', async () => {
      const first = newTask(syndicate, { name: 'morning-brief' });
      await store.schedules.add(first);

      expect(await other.schedules.add(newTask(syndicate, { name: 'morning-brief' }))).toEqual({ ok: false, reason: 'duplicate' });
      expect(await other.schedules.add(newTask(`${syndicate}-b`, { name: 'morning-brief' }))).toMatchObject({ ok: true });
      expect(await store.schedules.deactivate(first.id)).toBe(true);
      expect(await other.schedules.add(newTask(syndicate, { name: 'morning-brief', createdAt: 2_000 }))).toMatchObject({ ok: true });
      expect((await store.schedules.list([syndicate], { all: true })).map((t) => t.active)).toEqual([false, true]);
    });

    it(`keeps at most ${MAX_ACTIVE_TASKS} active tasks per syndicate, whichever processes add them at once`, async () => {
      const results = await Promise.all(Array.from({ length: MAX_ACTIVE_TASKS + 10 }, (_, i) => (i % 2 === 0 ? store : other).schedules.add(newTask(syndicate))));

      expect(results.filter((result) => result.ok)).toHaveLength(MAX_ACTIVE_TASKS);
      expect(results.filter((result) => !result.ok)).toEqual(Array.from({ length: 10 }, () => ({ ok: false, reason: 'limit' })));
    });

    it('gives a firing to one process only, when several claim it at once', async () => {
      const task = newTask(syndicate);
      await store.schedules.add(task);

      const claims = await Promise.all(Array.from({ length: 6 }, (_, i) => claim(i % 2 === 0 ? store : other, task.id, 10_000, `runner-${i}`)));

      expect(claims.filter((c) => c.outcome === 'claimed')).toHaveLength(1);
      expect(claims.filter((c) => c.outcome === 'taken')).toHaveLength(5);
      expect(await store.schedules.runs({ taskId: task.id, limit: 10 })).toHaveLength(1);
      expect((await store.schedules.get(task.id))?.lastScheduledFor).toBe(10_000);
    });

    it('records a claimed run running, in its session, held by its runner', async () => {
      const task = newTask(syndicate);
      await store.schedules.add(task);

      const claimed = await claim(store, task.id, 10_000);

      expect(claimed.outcome).toBe('claimed');
      const run = claimed.outcome === 'claimed' ? claimed.run : undefined;
      expect(await other.schedules.getRun(run!.id)).toEqual({
        id: run!.id, taskId: task.id, syndicate, scheduledFor: 10_000, startedAt: now, endedAt: null, status: 'running',
        sessionId: `task:${task.id}:10000`, answer: null, detail: null, runner: 'runner-a', leaseExpiresAt: now + LEASE,
      });
    });

    it('records a firing skipped while the previous run of the task is still going', async () => {
      const task = newTask(syndicate);
      await store.schedules.add(task);
      await claim(store, task.id, 10_000);

      const second = await claim(other, task.id, 12_000, 'runner-b');

      expect(second).toMatchObject({ outcome: 'skipped', run: { status: 'skipped', scheduledFor: 12_000, sessionId: null, detail: 'the previous run was still going' } });
      expect((await store.schedules.runs({ taskId: task.id, limit: 10 })).map((run) => [run.scheduledFor, run.status])).toEqual([
        [12_000, 'skipped'],
        [10_000, 'running'],
      ]);
    });

    it('starts one run of a task when several processes claim different firings of it at once: the others are skipped', async () => {
      const task = newTask(syndicate);
      await store.schedules.add(task);

      const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => claim(i % 2 === 0 ? store : other, task.id, 10_000 + 2_000 * i, `runner-${i}`)));

      expect(claims.filter((c) => c.outcome === 'claimed')).toHaveLength(1);
      expect(claims.filter((c) => c.outcome === 'skipped')).toHaveLength(7);
      const runs = await store.schedules.runs({ taskId: task.id, limit: 10 });
      expect(runs.filter((run) => run.status === 'running')).toHaveLength(1);
      expect((await store.schedules.get(task.id))?.lastScheduledFor).toBe(24_000);
    });

    it('records the end of a run its runner still holds, and refuses it from another runner', async () => {
      const task = newTask(syndicate);
      await store.schedules.add(task);
      const claimed = await claim(store, task.id, 10_000);
      const runId = claimed.outcome === 'claimed' ? claimed.run.id : '';

      expect(await other.schedules.finish(runId, 'runner-b', { status: 'answered', answer: 'stolen', detail: null, endedAt: now + 1 })).toBe(false);
      expect(await store.schedules.finish(runId, 'runner-a', { status: 'answered', answer: 'All quiet.', detail: null, endedAt: now + 2 })).toBe(true);
      expect(await store.schedules.finish(runId, 'runner-a', { status: 'failed', answer: null, detail: 'again', endedAt: now + 3 })).toBe(false);
      expect(await other.schedules.getRun(runId)).toMatchObject({ status: 'answered', answer: 'All quiet.', endedAt: now + 2, runner: null, leaseExpiresAt: null });
    });

    it('marks a run whose lease expired interrupted, fences its runner out, and does not count it as still going', async () => {
      const task = newTask(syndicate);
      await store.schedules.add(task);
      const claimed = await claim(store, task.id, 10_000);
      const runId = claimed.outcome === 'claimed' ? claimed.run.id : '';

      const interrupted = await other.schedules.interruptExpired(now + LEASE);
      const next = await claim(other, task.id, 12_000, 'runner-b', now + LEASE);

      expect(interrupted.filter((run) => run.id === runId)).toEqual([expect.objectContaining({ status: 'interrupted', detail: INTERRUPTED_DETAIL, endedAt: now + LEASE })]);
      expect(await store.schedules.heartbeat([runId], 'runner-a', now + 2 * LEASE)).toEqual([]);
      expect(await store.schedules.finish(runId, 'runner-a', { status: 'answered', answer: 'late', detail: null, endedAt: now + 2 * LEASE })).toBe(false);
      expect(next.outcome).toBe('claimed');
    });

    it('retakes a run its crashed process left interrupted, once, for the runner that retries it', async () => {
      const task = newTask(syndicate);
      await store.schedules.add(task);
      const claimed = await claim(store, task.id, 10_000);
      const runId = claimed.outcome === 'claimed' ? claimed.run.id : '';
      await other.schedules.interruptExpired(now + LEASE);
      const retry = { taskId: task.id, scheduledFor: 10_000, runner: 'runner-b', now: now + LEASE, leaseMs: LEASE, sessionId: `task:${task.id}:10000` };

      const retaken = await other.schedules.retake(retry);
      const again = await store.schedules.retake({ ...retry, runner: 'runner-c' });

      expect(retaken).toMatchObject({ id: runId, status: 'running', runner: 'runner-b', startedAt: now + LEASE, endedAt: null, detail: null, leaseExpiresAt: now + 2 * LEASE });
      expect(again).toBeUndefined();
      expect(await other.schedules.finish(runId, 'runner-b', { status: 'answered', answer: 'Done.', detail: null, endedAt: now + LEASE + 1 })).toBe(true);
    });

    it('does not retake a run that ended, or was interrupted by a cancel rather than a crash', async () => {
      const task = newTask(syndicate);
      await store.schedules.add(task);
      const first = await claim(store, task.id, 10_000);
      await store.schedules.finish(first.outcome === 'claimed' ? first.run.id : '', 'runner-a', { status: 'answered', answer: 'Done.', detail: null, endedAt: now + 1 });
      const second = await claim(store, task.id, 20_000, 'runner-a', now + 1);
      await store.schedules.finish(second.outcome === 'claimed' ? second.run.id : '', 'runner-a', { status: 'interrupted', answer: null, detail: 'the server stopped', endedAt: now + 2 });
      const retry = (scheduledFor: number) => ({ taskId: task.id, scheduledFor, runner: 'runner-b', now: now + 3, leaseMs: LEASE, sessionId: `task:${task.id}:${scheduledFor}` });

      expect(await other.schedules.retake(retry(10_000))).toBeUndefined();
      expect(await other.schedules.retake(retry(20_000))).toBeUndefined();
    });

    it("cancels a task's running run for any process to see: interrupted with the cancel's detail, its runner fenced out, never retaken", async () => {
      const task = newTask(syndicate);
      await store.schedules.add(task);
      const claimed = await claim(store, task.id, 10_000);
      const runId = claimed.outcome === 'claimed' ? claimed.run.id : '';

      const cancelled = await other.schedules.cancelRuns({ taskId: task.id }, 'cancelled: its task was removed', now + 5);

      expect(cancelled.map((run) => run.id)).toEqual([runId]);
      expect(await store.schedules.getRun(runId)).toMatchObject({ status: 'interrupted', detail: 'cancelled: its task was removed', endedAt: now + 5, runner: null, leaseExpiresAt: null });
      expect(await store.schedules.heartbeat([runId], 'runner-a', now + 10 * LEASE)).toEqual([]);
      expect(await store.schedules.finish(runId, 'runner-a', { status: 'answered', answer: 'Late.', detail: null, endedAt: now + 6 })).toBe(false);
      expect(await other.schedules.retake({ taskId: task.id, scheduledFor: 10_000, runner: 'runner-b', now: now + 7, leaseMs: LEASE, sessionId: 'x' })).toBeUndefined();
    });

    it('cancels the running run in a session, and nothing when no run goes there', async () => {
      const task = newTask(syndicate);
      await store.schedules.add(task);
      const claimed = await claim(store, task.id, 10_000);
      const runId = claimed.outcome === 'claimed' ? claimed.run.id : '';

      expect(await other.schedules.cancelRuns({ sessionId: `task:${task.id}:20000` }, 'cancelled', now + 1)).toEqual([]);
      expect((await other.schedules.cancelRuns({ sessionId: `task:${task.id}:10000` }, 'cancelled', now + 1)).map((run) => run.id)).toEqual([runId]);
      expect(await other.schedules.cancelRuns({ sessionId: `task:${task.id}:10000` }, 'cancelled again', now + 2)).toEqual([]);
    });

    it('tells a watcher on the store the ids of the runs each cancel stopped', async () => {
      const task = newTask(syndicate);
      await store.schedules.add(task);
      const claimed = await claim(store, task.id, 10_000);
      const heard: string[][] = [];
      const watch = await store.schedules.watchCancels((ids) => heard.push([...ids]), (error) => {
        throw error;
      });
      try {
        await store.schedules.cancelRuns({ taskId: task.id }, 'cancelled', now + 1);
        for (let i = 0; i < 200 && heard.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      } finally {
        await watch.stop();
      }

      expect(heard).toEqual([[claimed.outcome === 'claimed' ? claimed.run.id : '']]);
    });

    it('interrupts an expired run when the next firing of its task is claimed', async () => {
      const task = newTask(syndicate);
      await store.schedules.add(task);
      const claimed = await claim(store, task.id, 10_000);

      const next = await claim(other, task.id, 12_000, 'runner-b', now + LEASE);

      expect(next.outcome).toBe('claimed');
      expect((await store.schedules.getRun(claimed.outcome === 'claimed' ? claimed.run.id : ''))?.status).toBe('interrupted');
    });

    it('extends the lease of the runs its runner holds only', async () => {
      const task = newTask(syndicate);
      await store.schedules.add(task);
      const claimed = await claim(store, task.id, 10_000);
      const runId = claimed.outcome === 'claimed' ? claimed.run.id : '';

      expect(await other.schedules.heartbeat([runId], 'runner-b', now + 5 * LEASE)).toEqual([]);
      expect(await store.schedules.heartbeat([runId, 'no-such-run'], 'runner-a', now + 5 * LEASE)).toEqual([runId]);
      expect(await other.schedules.interruptExpired(now + 2 * LEASE)).not.toContainEqual(expect.objectContaining({ id: runId }));
      expect((await other.schedules.getRun(runId))?.leaseExpiresAt).toBe(now + 5 * LEASE);
    });

    it('deactivates a one-time task once its firing is decided, keeping its run readable', async () => {
      const task = newTask(syndicate, { cron: null, at: 20_000 });
      await store.schedules.add(task);

      const claimed = await claim(store, task.id, 20_000);

      expect(claimed.outcome).toBe('claimed');
      expect((await other.schedules.get(task.id))?.active).toBe(false);
      expect(await other.schedules.list([syndicate])).toEqual([]);
      expect(await claim(other, task.id, 20_000, 'runner-b')).toEqual({ outcome: 'inactive' });
      expect(await other.schedules.runs({ syndicate, limit: 10 })).toHaveLength(1);
    });

    it('records a missed firing skipped, once', async () => {
      const task = newTask(syndicate);
      await store.schedules.add(task);

      const skipped = await store.schedules.skip(task.id, 10_000, 'no server was running (catch_up: none)');

      expect(skipped).toMatchObject({ outcome: 'skipped', run: { status: 'skipped', startedAt: null, detail: 'no server was running (catch_up: none)' } });
      expect(await other.schedules.skip(task.id, 10_000, 'again')).toEqual({ outcome: 'taken' });
      expect(await claim(other, task.id, 10_000)).toEqual({ outcome: 'taken' });
      expect((await other.schedules.get(task.id))?.lastScheduledFor).toBe(10_000);
    });

    it('keeps lastScheduledFor at the latest firing decided, whatever order they are decided in', async () => {
      const task = newTask(syndicate);
      await store.schedules.add(task);
      await store.schedules.skip(task.id, 20_000, 'missed');
      await store.schedules.skip(task.id, 10_000, 'missed');

      expect((await other.schedules.get(task.id))?.lastScheduledFor).toBe(20_000);
    });

    it('lists runs of a syndicate newest first, up to the limit', async () => {
      const task = newTask(syndicate);
      await store.schedules.add(task);
      for (const at of [10_000, 30_000, 20_000]) await store.schedules.skip(task.id, at, 'missed');

      expect((await other.schedules.runs({ syndicate, limit: 2 })).map((run) => run.scheduledFor)).toEqual([30_000, 20_000]);
    });

    it('makes the file-declared tasks what the file says: added, updated in place, and deactivated when no longer declared', async () => {
      const declared = (name: string, message: string): NewTask => newTask(syndicate, { id: declaredTaskId(syndicate, name), name, message, origin: 'file' });
      await store.schedules.syncDeclared(syndicate, [declared('brief', 'v1'), declared('digest', 'v1')]);
      await store.schedules.skip(declaredTaskId(syndicate, 'brief'), 10_000, 'missed');

      const synced = await other.schedules.syncDeclared(syndicate, [declared('brief', 'v2')]);

      expect(synced.tasks.map((task) => [task.name, task.message, task.lastScheduledFor])).toEqual([['brief', 'v2', 10_000]]);
      expect((await store.schedules.get(declaredTaskId(syndicate, 'digest')))?.active).toBe(false);
      expect(await store.schedules.runs({ taskId: declaredTaskId(syndicate, 'brief'), limit: 10 })).toHaveLength(1);
    });

    it("moves a declared task to the owner the file names now, with the user its runs are for", async () => {
      const declared = (owner: string): NewTask => newTask(syndicate, { id: declaredTaskId(syndicate, 'brief'), name: 'brief', owner: { kind: 'user', id: owner }, runAs: owner, origin: 'file' });
      await store.schedules.syncDeclared(syndicate, [declared('admin')]);

      await other.schedules.syncDeclared(syndicate, [declared('alice')]);

      expect(await store.schedules.get(declaredTaskId(syndicate, 'brief'))).toMatchObject({ owner: { kind: 'user', id: 'alice' }, runAs: 'alice' });
    });

    it('gives a declared name to the file, deactivating the runtime task that had it', async () => {
      const runtime = newTask(syndicate, { name: 'brief' });
      await store.schedules.add(runtime);

      const synced = await other.schedules.syncDeclared(syndicate, [newTask(syndicate, { id: declaredTaskId(syndicate, 'brief'), name: 'brief', origin: 'file' })]);

      expect(synced.displaced.map((task) => task.id)).toEqual([runtime.id]);
      expect((await store.schedules.list([syndicate])).map((task) => task.id)).toEqual([declaredTaskId(syndicate, 'brief')]);
    });

    it('leaves a fired one-time task of the file deactivated when the file still declares it', async () => {
      const task = newTask(syndicate, { id: declaredTaskId(syndicate, 'once'), name: 'once', cron: null, at: 20_000, origin: 'file' });
      await store.schedules.syncDeclared(syndicate, [task]);
      await claim(store, task.id, 20_000);

      const synced = await other.schedules.syncDeclared(syndicate, [task]);

      expect(synced.tasks).toEqual([]);
      expect((await store.schedules.get(task.id))?.active).toBe(false);
    });
  });
}
