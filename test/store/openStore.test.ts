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

  it('refuses a PostgreSQL URL rather than treating it as a file path', async () => {
    await expect(openStore({ dbPath: 'postgres://localhost/syndicate' })).rejects.toThrow(/PostgreSQL/);
  });
});
