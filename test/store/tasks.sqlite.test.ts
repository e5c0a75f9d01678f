import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { scratchDir } from '../support/scratchDir.js';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import type { TaskRecord } from '../../src/store/tasks.js';
import { describeTaskRecordsConformance } from './tasksConformance.js';

// Removed when the file ends: the conformance suite and the tests below share it.
const dir = scratchDir('tasks');

describeTaskRecordsConformance(
  'sqlite',
  async () => openSqliteStore(join(dir, 'tasks.db')),
);

/** What the child fixture saves, too (save-task-then-wait.mjs). */
function task(id: string, owner: string): TaskRecord {
  return { id, agent: 'a', owner, contextId: 'c', state: 'TASK_STATE_WORKING', statusAt: '2026-01-01T00:00:00.000Z', document: { id }, runner: 'host/127.0.0.1:1' };
}

describe('SQLite task records', () => {
  it('journals the saves requested together, committing nothing, and refuses only the one that is not theirs to save', async () => {
    const executed: string[] = [];
    const store = openSqliteStore(join(dir, 'batched.db'), { onStatement: (sql) => executed.push(sql) });
    try {
      await store.tasks.save(task('taken', 'alice'));
      executed.length = 0;

      const outcomes = await Promise.allSettled([store.tasks.save(task('one', 'bob')), store.tasks.save(task('taken', 'bob')), store.tasks.save(task('two', 'bob'))]);

      expect(outcomes.map((outcome) => outcome.status)).toStrictEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(executed.filter((sql) => /^(BEGIN|INSERT|COMMIT)/.test(sql))).toStrictEqual([]);
      expect(await store.tasks.get('a', 'bob', 'two')).toStrictEqual(task('two', 'bob'));
      expect(await store.tasks.get('a', 'alice', 'taken')).toStrictEqual(task('taken', 'alice'));
    } finally {
      await store.close();
    }
  });

  it('checks nothing in the database for a task whose id the caller minted', async () => {
    const executed: string[] = [];
    const store = openSqliteStore(join(dir, 'minted.db'), { onStatement: (sql) => executed.push(sql) });
    try {
      executed.length = 0;

      await store.tasks.save(task('minted', 'bob'), { isNew: true });

      expect(executed).toStrictEqual([]);
      expect(await store.tasks.get('a', 'bob', 'minted')).toStrictEqual(task('minted', 'bob'));
    } finally {
      await store.close();
    }
  });

  it('keeps a saved task through a SIGKILL right after the save: the next open moves it into the table', async () => {
    const path = join(dir, 'killed.db');
    const child = spawn(process.execPath, [fileURLToPath(new URL('./fixtures/save-task-then-wait.mjs', import.meta.url)), path], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('saved') && resolve()));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('exit', resolve));

    const store = openSqliteStore(path);
    try {
      expect(await store.tasks.get('a', 'bob', 'kept')).toStrictEqual(task('kept', 'bob'));
      expect((await store.tasks.list({ agent: 'a', owner: 'bob', limit: 10 })).tasks.map(({ id }) => id)).toStrictEqual(['kept']);
    } finally {
      await store.close();
    }
  });

  it('warns, and keeps the first, when two processes save the same new task id for different owners', async () => {
    const path = join(dir, 'raced.db');
    const first = openSqliteStore(path);
    const second = openSqliteStore(path);
    const warnings: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((text) => (warnings.push(String(text)), true));
    try {
      await first.tasks.save(task('raced', 'alice'), { isNew: true });
      await second.tasks.save(task('raced', 'bob'), { isNew: true });

      await first.tasks.list({ agent: 'a', owner: 'alice', limit: 10 });
      await second.tasks.list({ agent: 'a', owner: 'bob', limit: 10 });

      expect(await second.tasks.get('a', 'alice', 'raced')).toStrictEqual(task('raced', 'alice'));
      expect(warnings.join('')).toContain("the state of A2A task 'raced' was not stored: another agent or caller holds that task id");
    } finally {
      spy.mockRestore();
      await second.close();
      await first.close();
    }
  });
});
