import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openExistingStore, openStore } from '../../src/store/openStore.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'syndicate-open-store-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('openStore', () => {
  it('opens a SQLite store at a file path', async () => {
    const dbPath = join(dir, 'explicit.db');
    const store = await openStore(dbPath);
    await store.openSession('s', 'council');
    await store.close();
    expect(existsSync(dbPath)).toBe(true);
  });

  it('opens a SQLite store named sqlite:<path>', async () => {
    const dbPath = join(dir, 'prefixed.db');
    const store = await openStore(`sqlite:${dbPath}`);
    await store.close();
    expect(existsSync(dbPath)).toBe(true);
  });

  it('opens a PostgreSQL URL as a PostgreSQL store, never as a file path', async () => {
    const before = await readdir(process.cwd());
    await expect(openStore('postgres://postgres@127.0.0.1:1/syndicate')).rejects.toThrow(/cannot connect to PostgreSQL at 127\.0\.0\.1:1 /);
    expect(await readdir(process.cwd())).toEqual(before);
  });
});

describe('openExistingStore', () => {
  it('opens nothing and creates no file when the SQLite file does not exist', async () => {
    const dbPath = join(dir, 'missing.db');
    expect(await openExistingStore(dbPath)).toBeUndefined();
    expect(existsSync(dbPath)).toBe(false);
  });

  it('opens a SQLite file that exists', async () => {
    const dbPath = join(dir, 'existing.db');
    await (await openStore(dbPath)).close();
    const store = await openExistingStore(dbPath);
    expect(store).toBeDefined();
    await store?.close();
  });
});
