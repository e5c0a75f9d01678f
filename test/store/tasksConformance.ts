import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Store } from '../../src/store/store.js';
import type { CancelRequest, PushConfigRecord, TaskRecord } from '../../src/store/tasks.js';

// The behaviour every TaskRecords implementation must show, written against the Store interface so
// the PostgreSQL implementation runs it unchanged. Every test uses a fresh agent id, so tasks left
// by earlier tests do no harm.

function at(second: number): string {
  return new Date(Date.UTC(2026, 11, 1, 9, 0, second)).toISOString();
}

export function describeTaskRecordsConformance(name: string, open: () => Promise<Store>, cleanup: () => Promise<void> = async () => undefined): void {
  describe(`${name} task records`, () => {
    let store: Store;
    let agent: string;
    const task = (id: string, overrides: Partial<TaskRecord> = {}): TaskRecord => ({
      id,
      agent,
      owner: 'client',
      contextId: 'ctx-1',
      state: 'TASK_STATE_COMPLETED',
      statusAt: at(0),
      document: { id, note: 'the whole task' },
      runner: 'host-a/127.0.0.1:4000',
      ...overrides,
    });
    const pushConfig = (taskId: string, id: string, overrides: Partial<PushConfigRecord> = {}): PushConfigRecord => ({
      agent,
      owner: 'client',
      taskId,
      id,
      wireVersion: '1.0',
      document: { id, taskId, url: `https://hooks.example/${id}`, authentication: { scheme: 'Bearer', credentials: 'hook-secret' } },
      ...overrides,
    });
    const RUNNING = ['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING'];
    // Lease times are ms since the epoch; tests pick them around a fixed now.
    const NOW = Date.UTC(2026, 11, 1, 9, 0, 0);
    // A runner name no other test uses, so leases left by earlier tests do no harm.
    const runner = (name: string): string => `${name}-${agent}`;
    const abandonedHere = async (now: number, leftBy?: string): Promise<string[]> =>
      (await store.tasks.abandoned(RUNNING, now, leftBy)).filter((t) => t.agent === agent).map((t) => t.id);

    beforeEach(async () => {
      store = await open();
      agent = `agent-${randomUUID()}`;
    });
    afterEach(async () => store.close());
    afterAll(cleanup);

    it('returns a saved task with its document as it was saved', async () => {
      const saved = task(randomUUID(), { document: { nested: { list: [1, 'two', null] } } });

      await store.tasks.save(saved);

      expect(await store.tasks.get(agent, 'client', saved.id)).toEqual(saved);
    });

    it('replaces a task saved again under the same id', async () => {
      const id = randomUUID();
      await store.tasks.save(task(id, { state: 'TASK_STATE_WORKING' }));

      await store.tasks.save(task(id, { state: 'TASK_STATE_COMPLETED', statusAt: at(5), document: { v: 2 } }));

      expect(await store.tasks.get(agent, 'client', id)).toMatchObject({ state: 'TASK_STATE_COMPLETED', statusAt: at(5), document: { v: 2 } });
    });

    it('hides a task from any other owner or agent', async () => {
      const id = randomUUID();
      await store.tasks.save(task(id));

      expect(await store.tasks.get(agent, 'client:alice', id)).toBeUndefined();
      expect(await store.tasks.get(`${agent}-other`, 'client', id)).toBeUndefined();
      expect((await store.tasks.list({ agent, owner: 'local', limit: 10 })).tasks).toEqual([]);
    });

    it('refuses to save over a task id that belongs to another owner', async () => {
      const id = randomUUID();
      await store.tasks.save(task(id, { owner: 'client:alice' }));

      await expect(store.tasks.save(task(id, { owner: 'client:mallory', document: { stolen: true } }))).rejects.toThrow(/belongs to another/);
      expect((await store.tasks.get(agent, 'client:alice', id))?.document).toEqual({ id, note: 'the whole task' });
    });

    it('lists newest status first, ties broken by id, with the total ignoring the limit', async () => {
      await store.tasks.save(task('b', { statusAt: at(1) }));
      await store.tasks.save(task('a', { statusAt: at(2) }));
      await store.tasks.save(task('c', { statusAt: at(2) }));

      const page = await store.tasks.list({ agent, owner: 'client', limit: 2 });

      expect(page.tasks.map((t) => t.id)).toEqual(['c', 'a']);
      expect(page.total).toBe(3);
    });

    it('continues a listing after a cursor without repeating or skipping tasks', async () => {
      for (const [i, id] of ['t1', 't2', 't3', 't4', 't5'].entries()) await store.tasks.save(task(id, { statusAt: at(i % 2) }));
      const seen: string[] = [];
      let after: { statusAt: string; id: string } | undefined;

      for (;;) {
        const page = await store.tasks.list({ agent, owner: 'client', limit: 2, after });
        seen.push(...page.tasks.map((t) => t.id));
        const last = page.tasks[page.tasks.length - 1];
        if (page.tasks.length < 2 || !last) break;
        after = { statusAt: last.statusAt, id: last.id };
      }

      expect(seen).toEqual(['t4', 't2', 't5', 't3', 't1']);
    });

    it('filters by context, state and status time (at or after it)', async () => {
      await store.tasks.save(task('old', { statusAt: at(1) }));
      await store.tasks.save(task('other-context', { contextId: 'ctx-2', statusAt: at(3) }));
      await store.tasks.save(task('working', { state: 'TASK_STATE_WORKING', statusAt: at(4) }));
      await store.tasks.save(task('match', { statusAt: at(5) }));

      const page = await store.tasks.list({ agent, owner: 'client', contextId: 'ctx-1', state: 'TASK_STATE_COMPLETED', statusSince: at(2), limit: 10 });

      expect(page.tasks.map((t) => t.id)).toEqual(['match']);
      expect(page.total).toBe(1);
    });

    it('includes a task whose status time equals the one asked for', async () => {
      await store.tasks.save(task('boundary', { statusAt: at(2) }));

      const page = await store.tasks.list({ agent, owner: 'client', contextId: 'ctx-1', statusSince: at(2), limit: 10 });

      expect(page.tasks.map((t) => t.id)).toEqual(['boundary']);
    });

    it('keeps the runner a task state was saved by', async () => {
      const saved = task(randomUUID(), { runner: runner('a') });

      await store.tasks.save(saved);

      expect((await store.tasks.get(agent, 'client', saved.id))?.runner).toBe(runner('a'));
    });

    it('finds running tasks of every agent and owner whose runner holds no lease, and no settled ones', async () => {
      const running = task(randomUUID(), { state: 'TASK_STATE_WORKING', owner: 'client:bob', runner: runner('gone') });
      await store.tasks.save(running);
      await store.tasks.save(task(randomUUID(), { state: 'TASK_STATE_COMPLETED', runner: runner('gone') }));

      const found = await store.tasks.abandoned(RUNNING, NOW);

      expect(found.filter((t) => t.agent === agent)).toEqual([running]);
    });

    it('leaves the running tasks of a runner whose lease has not expired', async () => {
      await store.tasks.renewLease(runner('live'), NOW + 30_000);
      await store.tasks.save(task('live-task', { state: 'TASK_STATE_WORKING', runner: runner('live') }));

      expect(await abandonedHere(NOW)).toEqual([]);
    });

    it('finds the running tasks of a runner whose lease expired, or was ended', async () => {
      await store.tasks.renewLease(runner('lapsed'), NOW - 1);
      await store.tasks.renewLease(runner('ended'), NOW + 30_000);
      await store.tasks.endLease(runner('ended'));
      await store.tasks.save(task('lapsed-task', { state: 'TASK_STATE_SUBMITTED', statusAt: at(1), runner: runner('lapsed') }));
      await store.tasks.save(task('ended-task', { state: 'TASK_STATE_WORKING', statusAt: at(2), runner: runner('ended') }));

      expect(await abandonedHere(NOW)).toEqual(['lapsed-task', 'ended-task']);
    });

    it('counts a lease renewed later from its new expiry', async () => {
      await store.tasks.renewLease(runner('renewed'), NOW - 1);
      await store.tasks.renewLease(runner('renewed'), NOW + 30_000);
      await store.tasks.save(task('renewed-task', { state: 'TASK_STATE_WORKING', runner: runner('renewed') }));

      expect(await abandonedHere(NOW)).toEqual([]);
      expect(await abandonedHere(NOW + 30_000)).toEqual(['renewed-task']);
    });

    it('finds the running tasks a runner left behind when that runner asks, though its lease is live', async () => {
      await store.tasks.renewLease(runner('restarted'), NOW + 30_000);
      await store.tasks.save(task('left-behind', { state: 'TASK_STATE_WORKING', runner: runner('restarted') }));

      expect(await abandonedHere(NOW, runner('other'))).toEqual([]);
      expect(await abandonedHere(NOW, runner('restarted'))).toEqual(['left-behind']);
    });

    /** Cancels of this test's agent that a watch on `watching` hears, and the watch. */
    const hearCancels = async (watching: Store) => {
      const heard: CancelRequest[] = [];
      const errors: Error[] = [];
      const watch = await watching.tasks.watchCancels((request) => request.agent === agent && heard.push(request), { onError: (error) => errors.push(error) });
      return { heard, errors, watch };
    };

    it('hears a cancel requested through another store on the same database', async () => {
      const other = await open();
      try {
        const { heard, errors, watch } = await hearCancels(store);

        await other.tasks.requestCancel({ agent, taskId: 'task-on-a' });

        await vi.waitFor(() => expect(heard).toEqual([{ agent, taskId: 'task-on-a' }]), { timeout: 5_000 });
        await watch.stop();
        expect(errors).toEqual([]);
      } finally {
        await other.close();
      }
    });

    it('hears cancels in the order they were requested, and none requested before the watch began', async () => {
      await store.tasks.requestCancel({ agent, taskId: 'before' });
      const { heard, watch } = await hearCancels(store);

      await store.tasks.requestCancel({ agent, taskId: 'first' });
      await store.tasks.requestCancel({ agent, taskId: 'second' });

      await vi.waitFor(() => expect(heard.map((request) => request.taskId)).toEqual(['first', 'second']), { timeout: 5_000 });
      await watch.stop();
    });

    it('returns a saved push config as it was saved, and lists a task\'s configs in the order first saved', async () => {
      const taskId = randomUUID();
      const second = pushConfig(taskId, 'hook-b', { wireVersion: '0.3' });
      await store.tasks.savePushConfig(pushConfig(taskId, 'hook-a'));
      await store.tasks.savePushConfig(second);

      expect(await store.tasks.pushConfigs(agent, 'client', taskId)).toEqual([pushConfig(taskId, 'hook-a'), second]);
    });

    it('replaces a push config saved again under the same id, keeping its place', async () => {
      const taskId = randomUUID();
      await store.tasks.savePushConfig(pushConfig(taskId, 'hook-a'));
      await store.tasks.savePushConfig(pushConfig(taskId, 'hook-b'));

      await store.tasks.savePushConfig(pushConfig(taskId, 'hook-a', { document: { v: 2 } }));

      expect((await store.tasks.pushConfigs(agent, 'client', taskId)).map((c) => [c.id, c.document])).toEqual([
        ['hook-a', { v: 2 }],
        ['hook-b', pushConfig(taskId, 'hook-b').document],
      ]);
    });

    it('hides push configs from any other owner, agent or task', async () => {
      const taskId = randomUUID();
      await store.tasks.savePushConfig(pushConfig(taskId, 'hook-a'));

      expect(await store.tasks.pushConfigs(agent, 'client:alice', taskId)).toEqual([]);
      expect(await store.tasks.pushConfigs(`${agent}-other`, 'client', taskId)).toEqual([]);
      expect(await store.tasks.pushConfigs(agent, 'client', randomUUID())).toEqual([]);
    });

    it('deletes one push config, and deletes nothing of another owner or for an unknown id', async () => {
      const taskId = randomUUID();
      await store.tasks.savePushConfig(pushConfig(taskId, 'hook-a'));
      await store.tasks.savePushConfig(pushConfig(taskId, 'hook-b'));

      await store.tasks.deletePushConfig(agent, 'client', taskId, 'hook-a');
      await store.tasks.deletePushConfig(agent, 'client:alice', taskId, 'hook-b');
      await store.tasks.deletePushConfig(agent, 'client', taskId, 'no-such-hook');

      expect((await store.tasks.pushConfigs(agent, 'client', taskId)).map((c) => c.id)).toEqual(['hook-b']);
    });

    it('keeps push configs after the store is closed and opened again', async () => {
      const taskId = randomUUID();
      await store.tasks.savePushConfig(pushConfig(taskId, 'hook-a'));
      await store.close();

      store = await open();

      expect(await store.tasks.pushConfigs(agent, 'client', taskId)).toEqual([pushConfig(taskId, 'hook-a')]);
    });
  });
}
