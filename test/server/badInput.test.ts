import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintApiKey } from '../../src/server/auth/apiKey.js';
import { createAuth } from '../../src/server/auth/createAuth.js';
import { createTurnService } from '../../src/server/turns/turnService.js';
import type { Store } from '../../src/store/store.js';
import { startTestServer, type TestServer } from './serverFixture.js';

// Bad input to the whole API as `syndicate serve` mounts it (real users, keys and turns): every
// request is refused with a problem naming what is wrong, and none of them changes what is stored.
// The memory API's own bad requests are in memory/memoryApiContract.test.ts.

const ADMIN = 'an-admin-token-for-the-bad-input-tests';

let t: TestServer;
let store: Store;
const keys: Record<'alice' | 'bob' | 'vera', string> = { alice: '', bob: '', vera: '' };

async function userWithKey(id: keyof typeof keys, role: 'member' | 'viewer'): Promise<void> {
  const minted = mintApiKey();
  await store.users.createUser({ id, role, createdAt: Date.now() });
  await store.users.createKey({ id: minted.id, name: 'laptop', userId: id, createdAt: Date.now(), lastUsedAt: null, revokedAt: null, salt: minted.salt, hash: minted.hash });
  keys[id] = minted.key;
}

beforeAll(async () => {
  t = await startTestServer(['council.yaml'], {
    auth: async (platform) => {
      store = await platform.store();
      return createAuth({ users: store.users, adminToken: ADMIN, secureCookies: false });
    },
    turns: (context) => createTurnService(context),
  });
  await userWithKey('alice', 'member');
  await userWithKey('bob', 'member');
  await userWithKey('vera', 'viewer');
}, 60_000);

afterAll(async () => {
  await t.server.close({ graceMs: 0 });
});

function send(path: string, init: { method?: string; body?: string; as?: string; contentType?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  const { method = 'GET', body, as = keys.alice, contentType = 'application/json', headers = {} } = init;
  return fetch(`${t.server.url}/api/v1${path}`, { method, body, headers: { authorization: `Bearer ${as}`, ...(body === undefined ? {} : { 'content-type': contentType }), ...headers } });
}

const post = (path: string, body: unknown, as?: string) => send(path, { method: 'POST', body: JSON.stringify(body), as });

/** Everything a request to these routes could change. */
async function snapshot(sessionId: string) {
  return {
    sessions: (await store.listSessions({ limit: 1_000 })).map(({ id, eventCount }) => ({ id, eventCount })),
    events: (await store.readEvents(sessionId)).length,
    users: await store.users.listUsers(),
    keys: (await store.users.listKeys()).map(({ id, revokedAt }) => ({ id, revokedAt })),
    usage: (await store.queryUsage()).length,
  };
}

describe('bad requests to the API', () => {
  it('are refused with a problem, and change nothing stored', async () => {
    const turn = await post('/turns', { syndicate: 'council', message: 'Should we hire a designer?' });
    await turn.text();
    const mine = turn.headers.get('x-session-id')!;
    const bobs = await post('/turns', { syndicate: 'council', message: 'Mine' }, keys.bob);
    await bobs.text();
    const bobsSession = bobs.headers.get('x-session-id')!;
    const aliceKey = (await store.users.listKeys('alice'))[0]!.id;
    // The ledger records a turn's calls after its stream ends.
    const calls = async () => (await Promise.all([mine, bobsSession].map((id) => store.readEvents(id)))).flat().filter((row) => row.event.type === 'usage').length;
    await expect.poll(async () => (await store.queryUsage()).length).toBe(await calls());
    const before = await snapshot(mine);

    const refusals: Array<[string, Promise<Response>, number]> = [
      // A misspelt sessionId would otherwise start a new session.
      ['misspelt field', post('/turns', { syndicate: 'council', sesionId: mine, message: 'Again' }), 400],
      ['form body', send('/turns', { method: 'POST', body: 'syndicate=council&message=hi', contentType: 'application/x-www-form-urlencoded' }), 415],
      ['malformed JSON', send('/turns', { method: 'POST', body: '{"syndicate":' }), 400],
      ['body over the limit', post('/turns', { syndicate: 'council', message: 'x'.repeat(1_100_000) }), 413],
      ['message over its limit', post('/turns', { syndicate: 'council', message: 'x'.repeat(100_001) }), 400],
      ['unknown syndicate', post('/turns', { syndicate: 'counsel', message: 'hi' }), 404],
      ["another user's session", post('/turns', { syndicate: 'council', sessionId: bobsSession, message: 'hi' }), 404],
      ['a viewer posting a turn', post('/turns', { syndicate: 'council', message: 'hi' }, keys.vera), 403],
      ['fork past the end', post(`/sessions/${encodeURIComponent(mine)}/fork`, { atSeq: 9_999 }), 422],
      ['fork at a seq that is not a number', post(`/sessions/${encodeURIComponent(mine)}/fork`, { atSeq: '3' }), 400],
      ["fork of another user's session", post(`/sessions/${encodeURIComponent(bobsSession)}/fork`, { atSeq: 1 }), 404],
      ["delete of another user's session", send(`/sessions/${encodeURIComponent(bobsSession)}`, { method: 'DELETE' }), 404],
      ['a viewer deleting', send(`/sessions/${encodeURIComponent(mine)}`, { method: 'DELETE', as: keys.vera }), 403],
      ['a reserved user id', post('/users', { id: 'client' }, ADMIN), 400],
      ['an unknown role', post('/users', { id: 'carol', role: 'owner' }, ADMIN), 400],
      ['a member adding a user', post('/users', { id: 'carol' }), 403],
      ['an empty key name', post('/keys', { name: ' ' }), 400],
      ["a key for another user", post('/keys', { name: 'x', user: 'bob' }), 403],
      ["revoking another user's key", send(`/keys/${aliceKey}`, { method: 'DELETE', as: keys.bob }), 404],
      ['removing the last admin', send('/users/admin', { method: 'DELETE', as: ADMIN }), 409],
      ['a chat without messages', post('/syndicates/council/chat', { id: 'c1', messages: [] }), 400],
      ['an AG-UI run without a thread', post('/syndicates/council/ag-ui', { runId: 'r1', messages: [] }), 400],
      ['a validate without yaml', post('/syndicates/validate', { file: 'council.yaml' }), 400],
      ['a misspelt filter', send('/sessions?syndicte=council'), 400],
      ['a Basic authorization', send('/sessions', { headers: { authorization: 'Basic YWxpY2U6cHc=' } }), 401],
    ];
    for (const [what, response, status] of refusals) {
      const answered = await response;
      expect(answered.status, what).toBe(status);
      expect(answered.headers.get('content-type'), what).toMatch(/^application\/problem\+json/);
      expect(((await answered.json()) as { detail?: string }).detail, what).toBeTruthy();
    }
    expect(await snapshot(mine)).toStrictEqual(before);
  });
});
