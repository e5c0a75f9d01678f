import { afterAll, beforeAll, expect } from 'vitest';
import { mintApiKey } from '../../src/server/auth/apiKey.js';
import { createAuth } from '../../src/server/auth/createAuth.js';
import { createTurnService } from '../../src/server/turns/turnService.js';
import type { Store } from '../../src/store/store.js';
import { startTestServer, type TestServer } from './serverFixture.js';

// What the hostile*.test.ts files attack: `syndicate serve` as it is mounted (real users and API
// keys, real turns on the scripted model, a real SQLite store, the A2A and MCP faces), with one
// member, alice, and her key.

export interface HostileServer {
  t: TestServer;
  store: Store;
  /** alice's API key (a member). */
  alice: string;
  /** A body posted as alice, written as given (so it may hold what JSON.stringify would not write). */
  post(path: string, body: string, headers?: Record<string, string>): Promise<Response>;
  /** Every stored session's id: what a refused request must leave as it was. */
  sessionIds(): Promise<string[]>;
  close(): Promise<void>;
}

async function startHostileServer(): Promise<HostileServer> {
  let store!: Store;
  const t = await startTestServer(['council.yaml'], {
    auth: async (platform) => {
      store = await platform.store();
      return createAuth({ users: store.users, secureCookies: false });
    },
    turns: (context) => createTurnService(context),
  });
  const minted = mintApiKey();
  await store.users.createUser({ id: 'alice', role: 'member', createdAt: Date.now() });
  await store.users.createKey({ id: minted.id, name: 'laptop', userId: 'alice', createdAt: Date.now(), lastUsedAt: null, revokedAt: null, salt: minted.salt, hash: minted.hash });
  return {
    t,
    store,
    alice: minted.key,
    post: (path, body, headers = {}) =>
      fetch(`${t.server.url}${path}`, { method: 'POST', body, headers: { authorization: `Bearer ${minted.key}`, 'content-type': 'application/json', ...headers } }),
    sessionIds: async () => (await store.listSessions({ limit: 1_000 })).map((session) => session.id),
    close: async () => void (await t.server.close({ graceMs: 0 })),
  };
}

/**
 * The file's hostile server: started before its first test, closed after its last. The object is
 * filled in when the server has started, so a test reads it as it is (s.post, s.t.server.url).
 */
export function useHostileServer(): HostileServer {
  const server = {} as HostileServer;
  beforeAll(async () => {
    Object.assign(server, await startHostileServer());
  }, 60_000);
  afterAll(async () => {
    await server.close();
  });
  return server;
}

export type Problem = { status: number; detail: string; errors?: Array<{ pointer: string }> };

/** The response's problem+json body, checking its content type. */
export async function problemOf(response: Response): Promise<Problem> {
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  return (await response.json()) as Problem;
}

/** No stack frame, no path of this machine: what express's own error page would show. */
export function expectNoInternals(text: string): void {
  expect(text).not.toMatch(/\bat \S+ \(|node_modules|\/work\/|\/src\/|URIError|<pre>/);
}
