import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/openStore.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'syndicate-open-store-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('openStore', () => {
  it('opens a SQLite store at dbPath', async () => {
    const dbPath = join(dir, 'explicit.db');
    const store = await openStore({ dbPath });
    await store.openSession('s', 'council');
    await store.close();
    expect(existsSync(dbPath)).toBe(true);
  });

  it('defaults to syndicate.db in the data directory named by the environment', async () => {
    const home = join(dir, 'home');
    const store = await openStore({ env: { SYNDICATE_HOME: home } });
    await store.close();
    expect(existsSync(join(home, 'syndicate.db'))).toBe(true);
  });

  it('opens a PostgreSQL URL as a PostgreSQL store, never as a file path', async () => {
    await expect(openStore({ dbPath: 'postgres://postgres@127.0.0.1:1/syndicate' })).rejects.toThrow(/cannot connect to PostgreSQL at 127\.0\.0\.1:1 /);
  });
});
