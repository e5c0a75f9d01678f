import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/openStore.js';
import { POSTGRES_TESTS, usePostgresCluster } from '../store/postgresCluster.js';
import { runCli, tempDir } from './cli.js';

const home = tempDir('prune');
afterAll(home.remove);

const DAY_MS = 86_400_000;

/** Stores sessions with no events: their updatedAt is now. */
async function sessions(db: string, ids: readonly string[]): Promise<void> {
  const store = await openStore(db);
  try {
    for (const id of ids) await store.openSession(id, 'council');
  } finally {
    await store.close();
  }
}

describe('syndicate sessions prune', () => {
  it('deletes nothing when no session is older than the cutoff, and says so', async () => {
    const db = join(home.path, 'recent.db');
    await sessions(db, ['recent']);

    const result = await runCli(['sessions', 'prune', '--older-than', '90d', '--db', db], { home: home.path });

    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Deleted 0 sessions not updated since /);
    const listed = await runCli(['sessions', 'list', '--json', '--db', db], { home: home.path });
    expect((JSON.parse(listed.stdout) as Array<{ id: string }>).map((session) => session.id)).toEqual(['recent']);
  });

  it('deletes the sessions not updated since a cutoff given as a time', async () => {
    const db = join(home.path, 'old.db');
    await sessions(db, ['old']);
    const tomorrow = new Date(Date.now() + DAY_MS).toISOString();

    const result = await runCli(['sessions', 'prune', '--older-than', tomorrow, '--db', db, '--json'], { home: home.path });

    expect(JSON.parse(result.stdout)).toEqual({ pruned: 1, before: Date.parse(tomorrow) });
  });

  it('is a usage error for an age it cannot read', async () => {
    const result = await runCli(['sessions', 'prune', '--older-than', 'soon'], { home: home.path });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain("cannot read --older-than 'soon': use a duration (90d, 12w, 24h, 30m)");
  });
});

describe.runIf(POSTGRES_TESTS)('syndicate sessions prune on PostgreSQL', () => {
  const cluster = usePostgresCluster();

  it('deletes the sessions not updated since the cutoff from a postgres:// store', async () => {
    const url = await cluster().createDatabase();
    await sessions(url, ['old']);
    const tomorrow = new Date(Date.now() + DAY_MS).toISOString();

    const result = await runCli(['sessions', 'prune', '--older-than', tomorrow, '--db', url, '--json'], { home: home.path });

    expect(JSON.parse(result.stdout)).toEqual({ pruned: 1, before: Date.parse(tomorrow) });
    const listed = await runCli(['sessions', 'list', '--json', '--db', url], { home: home.path });
    expect(JSON.parse(listed.stdout)).toEqual([]);
  });
});
