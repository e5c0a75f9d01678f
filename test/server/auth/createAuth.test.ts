import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatform } from '../../../src/platform/createPlatform.js';
import { mintApiKey } from '../../../src/server/auth/apiKey.js';
import { createAuth, type Auth } from '../../../src/server/auth/createAuth.js';
import type { UserRecords } from '../../../src/store/users.js';
import { scratchDir } from '../../support/scratchDir.js';
import { startTestServer, type TestServer } from '../serverFixture.js';

// The real auth service behind a real server: API keys on every face, SYNDICATE_ADMIN_TOKEN, the
// first start's one-time sign-in link, and the studio's cookie sign-in with its CSRF token.

const ADMIN_TOKEN = 'an-admin-token-long-enough-for-tests';
let t: TestServer;
let auth: Auth;
let users: UserRecords;

async function keyFor(userId: string, name = 'laptop'): Promise<{ id: string; key: string }> {
  const minted = mintApiKey();
  await users.createKey({ id: minted.id, name, userId, createdAt: Date.now(), lastUsedAt: null, revokedAt: null, salt: minted.salt, hash: minted.hash });
  return { id: minted.id, key: minted.key };
}

const withKey = (key: string, init: RequestInit = {}): RequestInit => ({ ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(init.headers as Record<string, string> | undefined) } });

async function signIn(token: string): Promise<{ cookie: string; csrfToken: string; response: Response }> {
  const response = await fetch(`${t.server.url}/api/v1/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
  const body = response.status === 200 ? ((await response.json()) as { csrfToken: string }) : { csrfToken: '' };
  return { cookie, csrfToken: body.csrfToken, response };
}

beforeAll(async () => {
  t = await startTestServer(['council.yaml'], {
    auth: async (platform) => {
      users = (await platform.store()).users;
      auth = await createAuth({ users, secureCookies: false });
      return auth;
    },
  });
  await users.createUser({ id: 'alice', role: 'member', createdAt: Date.now() });
  await users.createUser({ id: 'vera', role: 'viewer', createdAt: Date.now() });
});

afterAll(async () => {
  await t.server.close({ graceMs: 0 });
});

describe('API keys', () => {
  it('a Bearer key is accepted on /api/v1', async () => {
    const { key } = await keyFor('alice');
    expect((await fetch(`${t.server.url}/api/v1/syndicates`, withKey(key))).status).toBe(200);
  });

  it('a Bearer key is accepted on the A2A face', async () => {
    const { key } = await keyFor('alice');
    const response = await fetch(
      `${t.server.url}/a2a/council/jsonrpc`,
      withKey(key, { method: 'POST', headers: { 'a2a-version': '1.0' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'no-such-task' } }) }),
    );
    const body = (await response.json()) as { error?: { message: string } };
    expect(response.status).not.toBe(401);
    expect(body.error?.message ?? '').not.toMatch(/authentication|unauthori/i);
  });

  it('a Bearer key is accepted on the MCP face', async () => {
    const { key } = await keyFor('alice');
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '0' } } };
    const response = await fetch(`${t.server.url}/mcp`, withKey(key, { method: 'POST', headers: { accept: 'application/json, text/event-stream' }, body: JSON.stringify(initialize) }));
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('"serverInfo"');
  });

  it('a revoked key is refused with 401, saying it was revoked', async () => {
    const { id, key } = await keyFor('alice', 'old laptop');
    await users.revokeKey(id, Date.now());
    const response = await fetch(`${t.server.url}/api/v1/syndicates`, withKey(key));
    expect(response.status).toBe(401);
    expect(((await response.json()) as { detail: string }).detail).toContain("'old laptop' was revoked");
  });

  it('a key with a wrong secret is refused with 401', async () => {
    const { key } = await keyFor('alice');
    const forged = `${key.slice(0, -4)}AAAA`;
    expect((await fetch(`${t.server.url}/api/v1/syndicates`, withKey(forged))).status).toBe(401);
  });

  it("records the key's last use", async () => {
    const { id, key } = await keyFor('alice');
    await fetch(`${t.server.url}/api/v1/syndicates`, withKey(key));
    const listed = (await users.listKeys('alice')).find((record) => record.id === id);
    expect(listed?.lastUsedAt).toEqual(expect.any(Number));
  });

  it('a request without credentials is 401, saying what to send', async () => {
    const response = await fetch(`${t.server.url}/api/v1/syndicates`);
    expect(response.status).toBe(401);
    expect(((await response.json()) as { detail: string }).detail).toContain('Authorization: Bearer');
  });
});

describe('SYNDICATE_ADMIN_TOKEN', () => {
  it('authenticates as the admin, who then exists as a user, and makes no sign-in link', async () => {
    const platform = await createPlatform({ store: join(scratchDir('auth'), 'admin.db'), env: {} });
    const own = (await platform.store()).users;
    const admin = await createAuth({ users: own, adminToken: ADMIN_TOKEN, secureCookies: false });
    const request = { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, method: 'GET' } as never;
    expect(await admin.authenticate(request)).toStrictEqual({ userId: 'admin', role: 'admin', via: 'key' });
    expect(admin.adminConfigured).toBe(true);
    expect((await own.getUser('admin'))?.role).toBe('admin');
    expect(await admin.firstStartSignIn()).toBeUndefined();
    await platform.close();
  });
});

describe('the studio sign-in', () => {
  it('the first start makes the admin a one-time sign-in token that works once', async () => {
    const token = await auth.firstStartSignIn();
    expect(token).toEqual(expect.any(String));

    const first = await signIn(token!);
    const second = await signIn(token!);

    expect(first.response.status).toBe(200);
    expect(second.response.status).toBe(401);
  });

  it('a later start with the admin stored makes no sign-in token, and counts the admin as configured', async () => {
    const later = await createAuth({ users, secureCookies: false });
    expect(later.adminConfigured).toBe(true);
    expect(await later.firstStartSignIn()).toBeUndefined();
  });

  it('signing in with an API key sets an HttpOnly, SameSite=Strict session cookie and answers the user and CSRF token', async () => {
    const { key } = await keyFor('alice');
    const response = await fetch(`${t.server.url}/api/v1/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: key }) });
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toMatch(/^syndicate_session=[^;]+;.*Path=\/.*HttpOnly.*SameSite=Strict/);
    const body = (await response.json()) as { user: unknown; csrfToken: string };
    expect(body.user).toStrictEqual({ id: 'alice', name: 'alice', role: 'member' });
    expect(body.csrfToken).toEqual(expect.any(String));
  });

  it('a bad sign-in token is 401', async () => {
    expect((await signIn('not-a-token')).response.status).toBe(401);
  });

  it('/auth/me answers the user and CSRF token with the cookie, and 401 without', async () => {
    const { key } = await keyFor('alice');
    const { cookie, csrfToken } = await signIn(key);
    const me = await fetch(`${t.server.url}/api/v1/auth/me`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(await me.json()).toStrictEqual({ user: { id: 'alice', name: 'alice', role: 'member' }, csrfToken });
    expect((await fetch(`${t.server.url}/api/v1/auth/me`)).status).toBe(401);
  });

  it('a POST with the cookie but without the CSRF header is 403', async () => {
    const { key } = await keyFor('alice');
    const { cookie } = await signIn(key);
    const response = await fetch(`${t.server.url}/api/v1/syndicates/validate`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ yaml: 'x: 1' }) });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { detail: string }).detail).toContain('X-CSRF-Token');
  });

  it('a POST with the cookie and its CSRF header goes through', async () => {
    const { key } = await keyFor('alice');
    const { cookie, csrfToken } = await signIn(key);
    const response = await fetch(`${t.server.url}/api/v1/syndicates/validate`, { method: 'POST', headers: { cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' }, body: JSON.stringify({ yaml: 'x: 1' }) });
    expect(response.status).toBeLessThan(300);
  });

  it('a POST with the cookie and another sign-in\'s CSRF token is 403', async () => {
    const { key } = await keyFor('alice');
    const { cookie } = await signIn(key);
    const other = await signIn(key);
    const response = await fetch(`${t.server.url}/api/v1/syndicates/validate`, { method: 'POST', headers: { cookie, 'x-csrf-token': other.csrfToken, 'content-type': 'application/json' }, body: JSON.stringify({ yaml: 'x: 1' }) });
    expect(response.status).toBe(403);
  });

  it('signing out clears the cookie and ends the sign-in', async () => {
    const { key } = await keyFor('alice');
    const { cookie, csrfToken } = await signIn(key);
    const out = await fetch(`${t.server.url}/api/v1/auth/sign-out`, { method: 'POST', headers: { cookie, 'x-csrf-token': csrfToken } });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^syndicate_session=;/);
    expect((await fetch(`${t.server.url}/api/v1/auth/me`, { headers: { cookie } })).status).toBe(401);
  });
});
