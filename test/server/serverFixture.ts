import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Request } from 'express';
import type { RateLimit } from '../../src/a2a/rateLimit.js';
import { createPlatform, type Platform } from '../../src/platform/createPlatform.js';
import type { ApiCaller } from '../../src/server/caller.js';
import type { AuthService, ServerContext, TurnService } from '../../src/server/context.js';
import type { AnyRoute } from '../../src/server/http/route.js';
import { problem } from '../../src/server/http/problem.js';
import { loadSyndicates, type WatchedSyndicateRegistry } from '../../src/server/app/syndicateRegistry.js';
import { startServer, type RunningServer } from '../../src/server/app/startServer.js';
import { SHIPPED_PRICES, type PriceTable } from '../../src/telemetry/ledger/prices.js';
import { scratchDir } from '../support/scratchDir.js';

// A real server on 127.0.0.1:0 over a real SQLite store in a scratch folder, serving copies of
// bundled examples. Authentication is a token -> caller map (the real one is src/server/auth's).

export const EXAMPLES = join(import.meta.dirname, '../../examples');

export const CALLERS: Record<string, ApiCaller> = {
  'admin-key': { userId: 'admin', role: 'admin', via: 'key' },
  'alice-key': { userId: 'alice', role: 'member', via: 'key' },
  'bob-key': { userId: 'bob', role: 'member', via: 'key' },
  'vera-key': { userId: 'vera', role: 'viewer', via: 'key' },
};

export function tokenAuth(callers: Record<string, ApiCaller> = CALLERS): AuthService {
  return {
    routes: [],
    async authenticate(req: Request) {
      const match = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
      const caller = match ? callers[match[1]!] : undefined;
      return caller ?? problem(401, 'send Authorization: Bearer <an API key>');
    },
  };
}

/** No turns: what a server has before the turn service is wired. */
export function idleTurns(): TurnService {
  return { routes: [], running: () => 0, drain: async () => ({ finished: 0, interrupted: 0 }), runScheduled: async () => ({ status: 'failed', output: '', error: 'this test server runs no turns' }) };
}

export interface TestServer {
  server: RunningServer;
  platform: Platform;
  registry: WatchedSyndicateRegistry;
  folder: string;
  warnings: string[];
  /** fetch against the server's /api/v1 as the caller the key names. */
  api(path: string, init?: RequestInit & { key?: string }): Promise<Response>;
}

export interface TestServerOptions {
  /** More syndicate files to serve, by file name, written beside the examples before the server starts. */
  files?: Record<string, string>;
  /** The real auth service, built on the server's platform; tokenAuth() by default. */
  auth?: (platform: Platform) => Promise<AuthService>;
  /** More routes, built as serverParts builds them from the server's context. */
  routes?: (context: ServerContext) => AnyRoute[];
  /** /api/v1's limit per address and per API key; serve-a2a's default by default. */
  rateLimit?: RateLimit;
  /** The table the server costs calls with; the shipped one by default. */
  prices?: PriceTable;
  /** The turn service, built as serverParts builds it from the server's context; none (idleTurns) by default. */
  turns?: (context: ServerContext) => Promise<TurnService>;
  /** Time allowed to receive a whole request; startServer's default by default. */
  requestTimeoutMs?: number;
  /** The SQLite file of the store: another server's, to read what it left; a new one in the folder by default. */
  store?: string;
}

export async function startTestServer(examples: string[] = ['council.yaml', 'triage.yaml'], options: TestServerOptions = {}): Promise<TestServer> {
  const folder = scratchDir('server');
  for (const name of examples) copyFileSync(join(EXAMPLES, name), join(folder, name));
  for (const [name, yaml] of Object.entries(options.files ?? {})) writeFileSync(join(folder, name), yaml);
  const platform = await createPlatform({ store: options.store ?? join(folder, 'syndicate.db'), env: {} });
  const warnings: string[] = [];
  const warn = (message: string) => void warnings.push(message);
  const registry = loadSyndicates([folder], { platform, warn, offline: true, debounceMs: 20 });
  const auth = options.auth ? await options.auth(platform) : tokenAuth();
  const context: ServerContext = { platform, syndicates: registry, authenticate: auth.authenticate, warn };
  const server = await startServer({
    platform,
    syndicates: registry,
    auth,
    routes: options.routes?.(context),
    rateLimit: options.rateLimit,
    turns: options.turns ? await options.turns(context) : idleTurns(),
    host: '127.0.0.1',
    port: 0,
    adminConfigured: false,
    version: '0.0.0-test',
    prices: options.prices ?? SHIPPED_PRICES,
    requestTimeoutMs: options.requestTimeoutMs,
    warn,
  });
  return {
    server,
    platform,
    registry,
    folder,
    warnings,
    api: (path, { key = 'alice-key', ...init } = {}) =>
      fetch(`${server.url}/api/v1${path}`, {
        ...init,
        headers: { authorization: `Bearer ${key}`, ...(init.body ? { 'content-type': 'application/json' } : {}), ...(init.headers as Record<string, string> | undefined) },
      }),
  };
}
