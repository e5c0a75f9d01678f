import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { siloFor } from '../../src/core/silo.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { runCli, tempDir } from './cli.js';

// `syndicate dreams runs` as a process (the built CLI) against a store file holding dream run
// records, as serve writes them.

let home: { path: string; remove: () => void };
let db: string;

beforeEach(() => {
  home = tempDir('dreams');
  db = join(home.path, 'dreams.db');
});
afterEach(() => home.remove());

const cli = (args: string[]) => runCli([...args, '--db', db], { home: home.path });

async function dreamed(user: string, outcome: { error: string | null; journalPath: string | null }): Promise<void> {
  const store = openSqliteStore(db);
  try {
    const silo = siloFor('Council', user);
    const id = `dream-${user}`;
    await store.dreamRuns.start({ id, syndicate: 'Council', silo, sessionId: `dream:${silo}:${id}`, since: 0, startedAt: Date.parse('2026-12-02T03:00:00Z'), runner: 'test', leaseExpiresAt: Date.parse('2026-12-02T03:00:30Z') });
    await store.dreamRuns.finish(id, 'test', { status: outcome.error === null ? 'answered' : 'failed', endedAt: Date.parse('2026-12-02T03:00:05Z'), sessions: 4, facts: 2, ...outcome });
  } finally {
    await store.close();
  }
}

describe('syndicate dreams runs', () => {
  it("lists the admin's dream runs of a syndicate, with the sessions reflected on, the facts stored and the journal written", async () => {
    await dreamed('admin', { error: null, journalPath: 'journal/2026-12-02.md' });

    const listed = await cli(['dreams', 'runs', 'council']);

    expect(listed.code).toBe(0);
    expect(listed.stdout.split('\n').slice(0, 2)).toEqual([
      expect.stringMatching(/^STARTED +STATUS +SESSIONS +FACTS +JOURNAL \/ ERROR$/),
      expect.stringMatching(/^2026-12-02T03:00:00Z +answered +4 +2 +journal\/2026-12-02\.md$/),
    ]);
  });

  it("lists another user's dream runs with --user, as JSON with --json", async () => {
    await dreamed('alice', { error: 'the model is unreachable', journalPath: null });

    const listed = await cli(['dreams', 'runs', 'council', '--user', 'alice', '--json']);

    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ id: 'dream-alice', status: 'failed', error: 'the model is unreachable' })]);
  });

  it('says why there are none when the file declares no dreams', async () => {
    const listed = await cli(['dreams', 'runs', 'council']);

    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('No dreams of Council for admin in');
    expect(listed.stdout).toContain('its file declares no dreams: add a dreams: block (every: 24h, agent: <name>)');
  });
});
