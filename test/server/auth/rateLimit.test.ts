import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintApiKey } from '../../../src/server/auth/apiKey.js';
import { createAuth } from '../../../src/server/auth/createAuth.js';
import type { UserRecords } from '../../../src/store/users.js';
import { startTestServer, type TestServer } from '../serverFixture.js';

// /api/v1's rate limits, as serve-a2a's: a bucket per address and one per API key, refused with a
// 429 problem and Retry-After. 127.0.0.2 is a second loopback address, so a key can move.

let t: TestServer;
let users: UserRecords;

async function newKey(): Promise<string> {
  const minted = mintApiKey();
  await users.createKey({ id: minted.id, name: 'k', userId: 'alice', createdAt: Date.now(), lastUsedAt: null, revokedAt: null, salt: minted.salt, hash: minted.hash });
  return minted.key;
}

function get(key: string, localAddress: string): Promise<{ status: number; retryAfter: string | undefined; type: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(`${t.server.url}/api/v1/syndicates`, { localAddress, headers: { authorization: `Bearer ${key}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'], type: res.headers['content-type'] }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  // Refills so slowly that no token comes back during the test.
  t = await startTestServer(['council.yaml'], {
    rateLimit: { perSecond: 0.001, burst: 2 },
    auth: async (platform) => {
      users = (await platform.store()).users;
      await users.createUser({ id: 'alice', role: 'member', createdAt: Date.now() });
      return createAuth({ users, secureCookies: false });
    },
  });
});

afterAll(async () => {
  await t.server.close({ graceMs: 0 });
});

describe('API rate limits', () => {
  it("refuses a key over its limit with a 429 problem and Retry-After, even from a new address, while that address's other keys go through", async () => {
    const busy = await newKey();
    expect((await get(busy, '127.0.0.1')).status).toBe(200);
    expect((await get(busy, '127.0.0.1')).status).toBe(200);

    const moved = await get(busy, '127.0.0.2');
    const other = await get(await newKey(), '127.0.0.2');

    expect(moved.status).toBe(429);
    expect(moved.type).toContain('application/problem+json');
    expect(Number(moved.retryAfter)).toBeGreaterThan(0);
    expect(other.status).toBe(200);
  });

  it('refuses an address over its limit whatever key it sends', async () => {
    expect((await get(await newKey(), '127.0.0.3')).status).toBe(200);
    expect((await get(await newKey(), '127.0.0.3')).status).toBe(200);
    expect((await get(await newKey(), '127.0.0.3')).status).toBe(429);
  });
});

describe('sign-in attempts', () => {
  it('refuses an address over its sign-in attempts with a 429 and Retry-After', async () => {
    const own = await startTestServer(['council.yaml'], {
      auth: async (platform) => createAuth({ users: (await platform.store()).users, secureCookies: false, signInLimit: { perSecond: 0.001, burst: 2 } }),
    });
    const attempt = () => fetch(`${own.server.url}/api/v1/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: 'a-guess' }) });
    try {
      expect((await attempt()).status).toBe(401);
      expect((await attempt()).status).toBe(401);
      const refused = await attempt();
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await own.server.close({ graceMs: 0 });
    }
  });
});

describe('a non-loopback bind', () => {
  it('is allowed once an admin is stored', async () => {
    const later = await createAuth({ users, secureCookies: false });
    await users.createUser({ id: 'root', role: 'admin', createdAt: Date.now() });
    const after = await createAuth({ users, secureCookies: false });
    expect(later.adminConfigured).toBe(false);
    expect(after.adminConfigured).toBe(true);
  });
});
