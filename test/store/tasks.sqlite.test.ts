import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import type { TaskRecord } from '../../src/store/tasks.js';
import { describeTaskRecordsConformance } from './tasksConformance.js';

const dir = await mkdtemp(join(tmpdir(), 'syndicate-tasks-'));

describeTaskRecordsConformance(
  'sqlite',
  async () => openSqliteStore(join(dir, 'tasks.db')),
  () => rm(dir, { recursive: true, force: true }),
);

describe('SQLite task records', () => {
  it('writes the saves requested together in one commit, refusing only the one that is not theirs to save', async () => {
    const executed: string[] = [];
    const store = openSqliteStore(join(dir, 'batched.db'), { onStatement: (sql) => executed.push(sql) });
    const task = (id: string, owner: string): TaskRecord => ({ id, agent: 'a', owner, contextId: 'c', state: 'TASK_STATE_WORKING', statusAt: '2026-01-01T00:00:00.000Z', document: { id } });
    try {
      await store.tasks.save(task('taken', 'alice'));
      executed.length = 0;

      const outcomes = await Promise.allSettled([store.tasks.save(task('one', 'bob')), store.tasks.save(task('taken', 'bob')), store.tasks.save(task('two', 'bob'))]);

      expect(outcomes.map((outcome) => outcome.status)).toStrictEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(executed.filter((sql) => sql === 'COMMIT')).toHaveLength(1);
      expect(await store.tasks.get('a', 'bob', 'two')).toStrictEqual(task('two', 'bob'));
      expect(await store.tasks.get('a', 'alice', 'taken')).toStrictEqual(task('taken', 'alice'));
    } finally {
      await store.close();
    }
  });
});
