import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import type { TaskRecord } from '../../src/store/tasks.js';

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
      ...overrides,
    });

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

    it('finds tasks of every agent and owner by state', async () => {
      const running = task(randomUUID(), { state: 'TASK_STATE_WORKING', owner: 'client:bob' });
      await store.tasks.save(running);
      await store.tasks.save(task(randomUUID(), { state: 'TASK_STATE_COMPLETED' }));

      const found = await store.tasks.inStates(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']);

      expect(found.filter((t) => t.agent === agent)).toEqual([running]);
    });
  });
}
