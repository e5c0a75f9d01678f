import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintApiKey } from '../../../src/server/auth/apiKey.js';
import { createAuth } from '../../../src/server/auth/createAuth.js';
import type { UserRecords } from '../../../src/store/users.js';
import { startTestServer, type TestServer } from '../serverFixture.js';

// /api/v1/users (admin) and /api/v1/keys (each user's own; an admin's anyone's) behind the real
// auth service, and the roles: viewer read only, member their own, admin everything.

let t: TestServer;
let users: UserRecords;
const keys: Record<string, string> = {};

interface KeyBody {
  id: string;
  name: string;
  userId: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
  key?: string;
}

async function seedKey(userId: string): Promise<string> {
  const minted = mintApiKey();
  await users.createKey({ id: minted.id, name: 'seed', userId, createdAt: Date.now(), lastUsedAt: null, revokedAt: null, salt: minted.salt, hash: minted.hash });
  return minted.key;
}

function call(as: string, path: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
  return fetch(`${t.server.url}/api/v1${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${keys[as] ?? as}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}

async function createKey(as: string, body: { name: string; user?: string }): Promise<KeyBody> {
  const response = await call(as, '/keys', { method: 'POST', body });
  expect(response.status).toBe(201);
  return (await response.json()) as KeyBody;
}

beforeAll(async () => {
  t = await startTestServer(['council.yaml'], {
    auth: async (platform) => {
      users = (await platform.store()).users;
      return createAuth({ users, secureCookies: false });
    },
  });
  for (const [id, role] of [['root', 'admin'], ['alice', 'member'], ['bob', 'member'], ['vera', 'viewer']] as const) {
    await users.createUser({ id, role, createdAt: Date.now() });
    keys[id] = await seedKey(id);
  }
});

afterAll(async () => {
  await t.server.close({ graceMs: 0 });
});

describe('users (admin)', () => {
  it('an admin lists the users by id with their roles', async () => {
    const response = await call('root', '/users');
    expect(response.status).toBe(200);
    const listed = ((await response.json()) as { users: Array<{ id: string; role: string }> }).users;
    expect(listed.map((user) => [user.id, user.role])).toEqual(expect.arrayContaining([['alice', 'member'], ['root', 'admin'], ['vera', 'viewer']]));
  });

  it('an admin adds a user, who is then listed', async () => {
    const response = await call('root', '/users', { method: 'POST', body: { id: 'carol', role: 'viewer' } });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ id: 'carol', role: 'viewer' });
    expect((await users.getUser('carol'))?.role).toBe('viewer');
  });

  it('adding a user whose id exists is a 409', async () => {
    expect((await call('root', '/users', { method: 'POST', body: { id: 'alice' } })).status).toBe(409);
  });

  it('adding a user with a reserved id is a 400 naming the field', async () => {
    const response = await call('root', '/users', { method: 'POST', body: { id: 'local' } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: Array<{ pointer: string }> }).errors[0]!.pointer).toBe('#/body/id');
  });

  it('a member may not list users', async () => {
    expect((await call('alice', '/users')).status).toBe(403);
  });

  it('removing a user refuses their keys from then on', async () => {
    await users.createUser({ id: 'dave', role: 'member', createdAt: Date.now() });
    const key = await seedKey('dave');
    expect((await call(key, '/syndicates')).status).toBe(200);

    expect((await call('root', '/users/dave', { method: 'DELETE' })).status).toBe(204);

    expect((await call(key, '/syndicates')).status).toBe(401);
  });

  it('the last admin cannot be removed', async () => {
    const response = await call('root', '/users/root', { method: 'DELETE' });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { detail: string }).detail).toContain('add another admin first');
  });

  it('removing an unknown user is a 404', async () => {
    expect((await call('root', '/users/nobody', { method: 'DELETE' })).status).toBe(404);
  });
});

describe('keys', () => {
  it('a member creates a key, shown once, that works as a Bearer token', async () => {
    const created = await createKey('alice', { name: 'ci' });
    expect(created).toMatchObject({ name: 'ci', userId: 'alice', lastUsedAt: null, revokedAt: null });
    expect(created.key).toMatch(/^sk_syn_/);
    expect((await call(created.key!, '/syndicates')).status).toBe(200);
  });

  it("a member's listing shows only their keys, without secrets", async () => {
    await createKey('bob', { name: 'bob-only' });
    const response = await call('alice', '/keys');
    const listed = ((await response.json()) as { keys: KeyBody[] }).keys;
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((key) => key.userId === 'alice' && key.key === undefined)).toBe(true);
    expect(Object.keys(listed[0]!).sort()).toStrictEqual(['createdAt', 'id', 'lastUsedAt', 'name', 'revokedAt', 'userId']);
  });

  it('a member revokes their key: it is refused from then on and listed as revoked', async () => {
    const created = await createKey('alice', { name: 'to revoke' });

    expect((await call('alice', `/keys/${created.id}`, { method: 'DELETE' })).status).toBe(204);

    expect((await call(created.key!, '/syndicates')).status).toBe(401);
    const listed = ((await (await call('alice', '/keys')).json()) as { keys: KeyBody[] }).keys;
    expect(listed.find((key) => key.id === created.id)?.revokedAt).toEqual(expect.any(Number));
  });

  it("another user's key is a 404 to a member, and stays valid", async () => {
    const bobs = await createKey('bob', { name: 'bob laptop' });
    expect((await call('alice', `/keys/${bobs.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await call(bobs.key!, '/syndicates')).status).toBe(200);
  });

  it('a member may not create a key for another user', async () => {
    expect((await call('alice', '/keys', { method: 'POST', body: { name: 'x', user: 'bob' } })).status).toBe(403);
  });

  it('an admin creates a key for another user and lists it under them', async () => {
    const created = await createKey('root', { name: 'for vera', user: 'vera' });
    const listed = ((await (await call('root', '/keys?user=vera')).json()) as { keys: KeyBody[] }).keys;
    expect(created.userId).toBe('vera');
    expect(listed.map((key) => key.id)).toContain(created.id);
  });

  it('an admin revokes any key', async () => {
    const bobs = await createKey('bob', { name: 'lost phone' });
    expect((await call('root', `/keys/${bobs.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await call(bobs.key!, '/syndicates')).status).toBe(401);
  });
});

describe('the viewer role is read only', () => {
  it('a viewer reads the API', async () => {
    expect((await call('vera', '/syndicates')).status).toBe(200);
    expect((await call('vera', '/keys')).status).toBe(200);
  });

  it('a viewer may not create a key', async () => {
    expect((await call('vera', '/keys', { method: 'POST', body: { name: 'mine' } })).status).toBe(403);
  });

  it('a viewer may not call the A2A face, which runs turns', async () => {
    const response = await fetch(`${t.server.url}/a2a/council/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${keys.vera}`, 'a2a-version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }),
    });
    expect(response.status).toBe(403);
  });

  it('a viewer may not call the MCP face', async () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '0' } } };
    const response = await fetch(`${t.server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${keys.vera}` },
      body: JSON.stringify(initialize),
    });
    expect(response.status).toBe(403);
  });
});
