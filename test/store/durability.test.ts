import * as fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TurnEvent } from '../../src/core/events.js';
import { durabilityOf, openStore } from '../../src/store/openStore.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';

// fdatasync is observed through a spy over the real node:fs: the writes still reach the disk.
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return { ...real, fdatasyncSync: vi.fn(real.fdatasyncSync), fsyncSync: vi.fn(real.fsyncSync) };
});

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'syndicate-durability-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  vi.mocked(fs.fdatasyncSync).mockClear();
  vi.mocked(fs.fsyncSync).mockClear();
});

function message(text: string): TurnEvent {
  return { type: 'message', text, turnId: 't', agent: 'a', at: 1, depth: 0 };
}

describe('store durability', () => {
  it('syncs the journal before an append resolves under durability fsync', async () => {
    const store = openSqliteStore(join(dir, 'fsync.db'), { durability: 'fsync' });
    try {
      await store.openSession('s', 'council');
      vi.mocked(fs.fdatasyncSync).mockClear();

      await store.appendEvents('s', [message('kept')]);

      expect(fs.fdatasyncSync).toHaveBeenCalledTimes(1);
    } finally {
      await store.close();
    }
  });

  it('commits with synchronous FULL under durability fsync, so a commit is synced before it returns', async () => {
    const executed: string[] = [];
    const store = openSqliteStore(join(dir, 'fsync-commit.db'), { durability: 'fsync', onStatement: (sql) => executed.push(sql) });
    await store.close();

    expect(executed).toContain('PRAGMA synchronous = FULL');
  });

  it('syncs the directory that names a new journal under durability fsync', async () => {
    const store = openSqliteStore(join(dir, 'fsync-dir.db'), { durability: 'fsync' });
    await store.close();

    expect(fs.fsyncSync).toHaveBeenCalled();
  });

  it('calls no fsync for appends by default', async () => {
    const store = openSqliteStore(join(dir, 'default.db'));
    try {
      await store.openSession('s', 'council');
      await store.appendEvents('s', [message('kept')]);

      expect(fs.fdatasyncSync).not.toHaveBeenCalled();
      expect(fs.fsyncSync).not.toHaveBeenCalled();
    } finally {
      await store.close();
    }
  });

  it('takes durability fsync from SYNDICATE_DURABILITY', async () => {
    const store = await openStore(join(dir, 'env.db'), { SYNDICATE_DURABILITY: 'fsync' });
    try {
      await store.openSession('s', 'council');
      vi.mocked(fs.fdatasyncSync).mockClear();
      await store.appendEvents('s', [message('kept')]);

      expect(fs.fdatasyncSync).toHaveBeenCalledTimes(1);
    } finally {
      await store.close();
    }
  });

  it('refuses an unknown SYNDICATE_DURABILITY, naming the values it takes', () => {
    expect(() => durabilityOf({ SYNDICATE_DURABILITY: 'always' })).toThrow(/SYNDICATE_DURABILITY is 'always': set it to 'fsync'.*or 'write'/);
  });
});
