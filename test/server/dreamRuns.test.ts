import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siloFor } from '../../src/core/silo.js';
import type { Store } from '../../src/store/store.js';
import { startTestServer, type TestServer } from './serverFixture.js';

// GET /dreams/runs over real HTTP and a real SQLite store: a user reads their own silo's dream
// run records, an admin anyone's, and a member naming another user is refused.

let t: TestServer;
let store: Store;

beforeAll(async () => {
  t = await startTestServer(['council.yaml']);
  store = await t.platform.store();
  for (const user of ['alice', 'bob']) {
    const silo = siloFor('Council', user);
    const run = { id: `dream-${user}`, syndicate: 'Council', silo, sessionId: `dream:${silo}:dream-${user}`, since: 0, startedAt: 1_000 };
    await store.dreamRuns.start({ ...run, runner: 'test', leaseExpiresAt: 31_000 });
    await store.dreamRuns.finish(run.id, 'test', { status: 'answered', endedAt: 2_000, journalPath: 'journal/2026-12-02.md', facts: 2, sessions: 3, error: null });
  }
});
afterAll(async () => {
  await t.server.close({ graceMs: 0 });
});

const runsOf = async (query: string, key?: string) => {
  const response = await t.api(`/dreams/runs?${query}`, key ? { key } : {});
  return { status: response.status, body: (await response.json()) as { runs?: Array<{ id: string }>; detail?: string } };
};

describe('/dreams/runs', () => {
  it("gives the caller's own dream runs of a syndicate named by id, with what each reflected on and wrote", async () => {
    const { status, body } = await runsOf('syndicate=council');

    expect(status).toBe(200);
    expect(body.runs).toEqual([
      expect.objectContaining({ id: 'dream-alice', status: 'answered', sessions: 3, facts: 2, journalPath: 'journal/2026-12-02.md', startedAt: 1_000, endedAt: 2_000 }),
    ]);
  });

  it("gives an admin another user's dream runs", async () => {
    expect((await runsOf('syndicate=Council&user=bob', 'admin-key')).body.runs?.map((run) => run.id)).toEqual(['dream-bob']);
  });

  it("refuses a member naming another user's silo with a 403 saying to leave out user", async () => {
    const { status, body } = await runsOf('syndicate=council&user=bob');

    expect(status).toBe(403);
    expect(body.detail).toBe("only an admin may read another user's dreams: leave out `user` to read yours");
  });
});
