import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintApiKey } from '../../../src/server/auth/apiKey.js';
import { createAuth } from '../../../src/server/auth/createAuth.js';
import type { UserRecords } from '../../../src/store/users.js';
import { startTestServer, type TestServer } from '../serverFixture.js';

// serve's rate limits, as serve-a2a's: a bucket per address and one per API key, shared by the API,
// A2A and MCP, refused with a 429 (a problem on the API) and Retry-After. 127.0.0.x are all
// loopback addresses, so a key can move.

let t: TestServer;
let users: UserRecords;

async function newKey(): Promise<string> {
  const minted = mintApiKey();
  await users.createKey({ id: minted.id, name: 'k', userId: 'alice', createdAt: Date.now(), lastUsedAt: null, revokedAt: null, salt: minted.salt, hash: minted.hash });
  return minted.key;
}

interface Answer {
  status: number;
  retryAfter: string | undefined;
  type: string | undefined;
  body: string;
}

/** A request from `localAddress` with `key` as its Bearer token; a JSON body is POSTed. */
function send(path: string, key: string, localAddress: string, body?: unknown): Promise<Answer> {
  const headers = { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'a2a-version': '1.0' }) };
  return new Promise((resolve, reject) => {
    const req = request(`${t.server.url}${path}`, { method: body === undefined ? 'GET' : 'POST', localAddress, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'], type: res.headers['content-type'], body: text }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const get = (key: string, localAddress: string): Promise<Answer> => send('/api/v1/syndicates', key, localAddress);

const MCP_INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '0' } } };
const A2A_GET_TASK = { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'no-such-task' } };

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

describe('one set of buckets for every face', () => {
  it("counts a key's requests to the API, MCP and A2A together, each face refusing in its own shape", async () => {
    const key = await newKey();
    expect((await get(key, '127.0.0.4')).status).toBe(200);
    expect((await send('/mcp', key, '127.0.0.5', MCP_INITIALIZE)).status).toBe(200);

    const a2a = await send('/a2a/council/jsonrpc', key, '127.0.0.6', A2A_GET_TASK);
    const mcp = await send('/mcp', key, '127.0.0.7', MCP_INITIALIZE);

    expect(a2a.status).toBe(429);
    expect(JSON.parse(a2a.body)).toMatchObject({ jsonrpc: '2.0', error: { message: expect.stringContaining('Too many requests') } });
    expect(mcp.status).toBe(429);
    expect(JSON.parse(mcp.body)).toMatchObject({ jsonrpc: '2.0', error: { message: expect.stringContaining('Too many requests') } });
    expect(Number(mcp.retryAfter)).toBeGreaterThan(0);
  });

  it("counts an address's requests to every face together, whatever keys it sends", async () => {
    expect((await send('/mcp', await newKey(), '127.0.0.8', MCP_INITIALIZE)).status).toBe(200);
    expect((await get(await newKey(), '127.0.0.8')).status).toBe(200);

    expect((await send('/a2a/council/jsonrpc', await newKey(), '127.0.0.8', A2A_GET_TASK)).status).toBe(429);
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
