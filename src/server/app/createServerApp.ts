import express, { type ErrorRequestHandler, type Express, type Request, type RequestHandler, type Response } from 'express';
import { siloOf, type Caller } from '../../a2a/caller.js';
import { createA2aApp, type A2aApp, type ServedSyndicate } from '../../a2a/createA2aApp.js';
import { DEFAULT_RATE_LIMIT, createRateLimiter, rateGuards, type RateBucket, type RateLimit } from '../../a2a/rateLimit.js';
import { rateLimitedWarning } from '../../a2a/rateLimitedWarning.js';
import { a2aServerTurns } from '../../a2a/serverTurns.js';
import { loopbackOnly, type AuthenticateCaller } from '../../a2a/security.js';
import { DEFAULT_LEASE_MS, holdTaskLease, type TaskLease } from '../../a2a/taskLease.js';
import { authInfoFor } from '../../mcp/callerAuth.js';
import { presentedToken } from '../../mcp/http/bearerToken.js';
import { createMcpHttpHandler, type McpHttpHandler } from '../../mcp/http/serveHttp.js';
import { recordedSyndicate } from '../../mcp/recordedSyndicate.js';
import { syndicateServerFactory, syndicateServerTools, type SyndicateServerOptions } from '../../mcp/syndicateServer.js';
import { sharedMemoryTools } from '../../memory/sharedMemoryTools.js';
import type { Platform } from '../../platform/createPlatform.js';
import { rememberOrWarn } from '../../platform/serverTurn.js';
import type { Store } from '../../store/store.js';
import type { PriceTable } from '../../telemetry/ledger/prices.js';
import { parseApiKey } from '../auth/apiKey.js';
import { hasRole } from '../caller.js';
import type { AuthService, SyndicateRegistry, TurnService } from '../context.js';
import { openApiDocument } from '../http/openApi.js';
import { problem, sendProblem, type Problem } from '../http/problem.js';
import { defineRoute, json, mountRoutes, type AnyRoute } from '../http/route.js';
import { sessionRoutes } from './routes/sessions.js';
import { syndicateRoutes } from './routes/syndicates.js';
import { dreamRoutes } from './routes/dreams.js';
import { taskRoutes } from './routes/tasks.js';
import { usageRoutes } from './routes/usage.js';

// `syndicate serve`'s express app: the API under /api/v1 (its own routes and the parts' given in
// options), health checks, the A2A face at /a2a/<id>/, MCP at /mcp and the studio at /. Every
// face authenticates through the one AuthService, so a user is the same user (and silo) on each.

export const DEFAULT_API_BODY_BYTES = 1024 * 1024;

export interface ServerAppOptions {
  platform: Platform;
  syndicates: SyndicateRegistry;
  auth: AuthService;
  turns: TurnService;
  /** More parts' routes (memory's), mounted under /api/v1 beside the server's own. */
  routes?: readonly AnyRoute[];
  studio?: RequestHandler;
  /** The server's public base URL (A2A cards name absolute URLs), without a trailing slash. */
  baseUrl: string;
  /** The package's, in A2A cards, MCP serverInfo and the OpenAPI document. */
  version: string;
  /** Refuse requests not addressed to a loopback name (DNS-rebinding protection): a loopback bind without PUBLIC_URL. */
  loopbackOnly?: boolean;
  /** This process's A2A task lease name (see a2a/taskLease.ts). */
  runner: string;
  prices: PriceTable;
  maxBodyBytes?: number;
  /** Requests per address and per API key, to the API, A2A and MCP together; serve-a2a's default. */
  rateLimit?: RateLimit;
  /** How long the A2A task lease lasts without a heartbeat (see a2a/taskLease.ts); 30 s by default. */
  leaseMs?: number;
  warn(message: string): void;
}

export interface ServerApp {
  app: Express;
  /** Every /api/v1 route, as openapi.json describes them. */
  routes: AnyRoute[];
  /** How many A2A tasks dead processes left running were marked failed at startup. */
  interruptedTasks: number;
  /** Closes the A2A and MCP faces (their task states written, their sessions ended, the task lease ended). */
  close(): Promise<void>;
}

function isProblem(value: object): value is Problem {
  return 'status' in value && 'title' in value;
}

/** The A2A and MCP faces' view of an API caller: an authenticated client naming its user. */
function faceCaller(auth: AuthService): AuthenticateCaller {
  return async (req) => {
    const who = await auth.authenticate(req);
    if (isProblem(who)) return { status: who.status === 403 ? 403 : 401, message: who.detail ?? who.title };
    // Both faces run turns and write memory: a viewer is read only everywhere.
    if (!hasRole(who, 'member')) return { status: 403, message: 'a viewer is read only, and A2A and MCP run turns: ask an admin for the member role' };
    const caller: Caller = { principal: 'client', userId: who.userId };
    return caller;
  };
}

/** The id of the API key a request presents, if it presents one. */
function apiKeyIdOf(req: Request): string | undefined {
  const presented = presentedToken(req.headers.authorization ?? null);
  return presented === undefined ? undefined : parseApiKey(presented)?.id;
}

/** express.json's failures (too large, not JSON) and the router's (a malformed percent-escape) as problems; anything else is a bare 500. */
function bodyErrors(warn: (message: string) => void): ErrorRequestHandler {
  return (error: { type?: string; status?: number; limit?: number; message?: string; stack?: string }, req, res, next) => {
    if (res.headersSent) return next(error);
    if (error.type === 'entity.too.large') return sendProblem(res, problem(413, `the request body is over the limit of ${error.limit} bytes; send less`));
    if (error.type === 'entity.parse.failed') return sendProblem(res, problem(400, `the request body is not valid JSON: ${error.message}`));
    if (error.status !== undefined && error.status >= 400 && error.status < 500) return sendProblem(res, problem(error.status, error.message ?? 'the request was refused'));
    warn(`error: ${req.method} ${req.originalUrl} failed: ${error.stack ?? error.message ?? String(error)}`);
    sendProblem(res, problem(500, 'the server failed to answer this request; the error is in its log'));
  };
}

function healthRoutes(platform: Platform): RequestHandler[] {
  const healthz: RequestHandler = (_req, res) => void res.json({ status: 'ok' });
  const readyz: RequestHandler = (_req, res) => {
    platform
      .store()
      .then((store) => store.listSessions({ limit: 1 }))
      .then(
        () => res.json({ status: 'ok' }),
        (error: unknown) => sendProblem(res, problem(503, `the store (${platform.storeName}) is not reachable: ${error instanceof Error ? error.message : String(error)}`)),
      );
  };
  return [healthz, readyz];
}

interface A2aFace {
  a2a: A2aApp;
  lease: TaskLease;
  close(): Promise<void>;
}

/**
 * As serveA2a does: the task lease is taken before any request (startup marks failed only what
 * dead processes left running), and cancels other servers on the database hear reach our turns.
 */
async function a2aFace(options: ServerAppOptions, authenticateCaller: AuthenticateCaller, rateBuckets: readonly RateBucket[]): Promise<A2aFace | undefined> {
  // An entry holds its file's latest valid version: each turn and card takes it, so an edit reaches A2A callers at their next message.
  const agents = options.syndicates.list().flatMap((entry) => (entry.current ? [{ id: entry.id, syndicate: entry.current.compiled, current: () => entry.current!.compiled }] : []));
  if (agents.length === 0) return undefined;
  const { platform, warn } = options;
  const store = await platform.store();
  const lease = await holdTaskLease(store.tasks, { runner: options.runner, leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS, warn });
  const a2a = a2aApp(options, authenticateCaller, agents, store, rateBuckets);
  const cancelWarning = rateLimitedWarning(warn);
  const cancels = await store.tasks
    .watchCancels(({ agent, taskId }) => a2a.abortTurn(agent, taskId), {
      onError: (error) => cancelWarning(`warning: a cancel sent from another server may be missed: ${error.message}`),
    })
    .catch(async (error: unknown) => {
      await lease.end();
      throw error;
    });
  return {
    a2a,
    lease,
    async close() {
      await a2a.settled();
      await cancels.stop();
      await lease.end();
    },
  };
}

function a2aApp(options: ServerAppOptions, authenticateCaller: AuthenticateCaller, agents: ServedSyndicate[], store: Store, rateBuckets: readonly RateBucket[]): A2aApp {
  const { platform } = options;
  return createA2aApp({
    agents,
    store,
    runner: options.runner,
    baseUrl: `${options.baseUrl}/a2a`,
    secret: undefined,
    authenticateCaller,
    rateBuckets,
    loopbackOnly: false,
    version: options.version,
    webhookPolicy: platform.network,
    warn: options.warn,
    ...a2aServerTurns(platform, rememberOrWarn(options.warn)),
  });
}

async function mcpFace(options: ServerAppOptions): Promise<McpHttpHandler | undefined> {
  const { platform, syndicates } = options;
  const store = await platform.store();
  const remember = rememberOrWarn(options.warn);
  // Built per request (the Streamable HTTP revision serves each request with a new server): an
  // edited file's latest valid version answers the next call.
  const servedNow = (): SyndicateServerOptions => ({
    version: options.version,
    caller: 'http',
    syndicates: syndicates.list().flatMap((entry) => (entry.current ? [recordedSyndicate(platform, entry.current.compiled, store, remember)] : [])),
    toolsFor: async (syndicate, caller) => {
      const memory = await platform.memory(syndicate, siloOf(caller, syndicate.name));
      return memory ? sharedMemoryTools(memory) : [];
    },
  });
  const served = servedNow();
  if (served.syndicates.length === 0) return undefined;
  try {
    // Tool names clash whoever calls: found now rather than at the first request.
    await syndicateServerTools(served, { principal: 'client', userId: undefined });
  } catch (error) {
    options.warn(`warning: MCP is not served: ${(error as Error).message}`);
    return undefined;
  }
  return createMcpHttpHandler(
    (context) => syndicateServerFactory(servedNow())(context),
    (_request, authInfo) => (authInfo ? { authInfo } : { refused: Response.json({ jsonrpc: '2.0', error: { code: -32001, message: 'Unauthorized' }, id: null }, { status: 401 }) }),
    (error) => options.warn(`warning: MCP HTTP: ${error.message}`),
  );
}

export async function createServerApp(options: ServerAppOptions): Promise<ServerApp> {
  const { platform, syndicates, auth, turns, warn } = options;
  const store = () => platform.store();
  const own = [...syndicateRoutes(syndicates), ...sessionRoutes(store, syndicates), ...taskRoutes(store, syndicates), ...dreamRoutes(store, syndicates), ...usageRoutes(store, syndicates, options.prices)];
  const parts = [...auth.routes, ...turns.routes, ...(options.routes ?? [])];
  const info = { title: 'Syndicate', version: options.version, description: 'The API of `syndicate serve`. A message to a session whose turn is running follows the syndicate\'s concurrency policy: enqueue (default), reject (409) or interrupt.' };
  const routes: AnyRoute[] = [...own, ...parts];
  const openApi = defineRoute({
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApi',
    summary: 'This description of the API (OpenAPI 3.1)',
    tag: 'Meta',
    access: 'public',
    responses: { 200: { description: 'The OpenAPI document' } },
    handle: async () => json(document),
  });
  routes.push(openApi);
  const document = openApiDocument(routes, info);

  const app = express();
  app.disable('x-powered-by');
  // A page on another site can reach 127.0.0.1 from a browser, but names its own host: every face is guarded.
  if (options.loopbackOnly) app.use(loopbackOnly((_req, res, status, message) => sendProblem(res, problem(status, message))));
  const api = express.Router();
  // As serve-a2a does, a bucket per address; and one per API key, so a key shared by many addresses
  // is limited too. Every face counts against the same buckets, each refusing in its own shape.
  const limit = options.rateLimit ?? DEFAULT_RATE_LIMIT;
  const rateBuckets: RateBucket[] = [{ limiter: createRateLimiter(limit) }, { limiter: createRateLimiter(limit), clientOf: apiKeyIdOf }];
  const refuse = (_req: Request, res: Response, status: number, message: string) => sendProblem(res, problem(status, message));
  api.use(...rateGuards(rateBuckets, refuse));
  mountRoutes(api, routes, { authenticate: auth.authenticate, warn, readBody: express.json({ limit: options.maxBodyBytes ?? DEFAULT_API_BODY_BYTES }) });
  api.use((req, res) => sendProblem(res, problem(404, `there is no ${req.method} ${req.baseUrl}${req.path}; the routes are listed at /api/v1/openapi.json`)));
  api.use(bodyErrors(warn));
  app.use('/api/v1', api);
  const [healthz, readyz] = healthRoutes(platform);
  app.get('/healthz', healthz!);
  app.get('/readyz', readyz!);

  const authenticateCaller = faceCaller(auth);
  const a2a = await a2aFace(options, authenticateCaller, rateBuckets);
  if (a2a) app.use('/a2a', a2a.a2a.app);
  const mcp = await mcpFace(options);
  if (mcp) {
    const mcpHandle = mcp.handle;
    const refuseJsonRpc = (_req: Request, res: Response, status: number, message: string) => void res.status(status).json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
    app.all('/mcp', ...rateGuards(rateBuckets, refuseJsonRpc), async (req: Request, res, next) => {
      try {
        const who = await authenticateCaller(req);
        if ('status' in who) {
          res.setHeader('WWW-Authenticate', 'Bearer realm="syndicate"');
          return void res.status(who.status).json({ jsonrpc: '2.0', error: { code: -32001, message: who.message }, id: null });
        }
        await mcpHandle(Object.assign(req, { auth: authInfoFor(who) }), res);
      } catch (error) {
        if (res.headersSent) return next(error);
        warn(`error: ${req.method} /mcp failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        res.status(500).json({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error: the server failed to answer this request; the error is in its log' }, id: null });
      }
    });
  }
  if (options.studio) app.use(options.studio);
  // Whatever no face answered, and errors no face caught: a problem, never express's HTML page (which shows the stack and file paths).
  app.use((req, res) => sendProblem(res, problem(404, `there is no ${req.method} ${req.path}: the API is under /api/v1 (its routes at /api/v1/openapi.json), A2A under /a2a/<syndicate>/, MCP at /mcp`)));
  app.use(bodyErrors(warn));
  return {
    app,
    routes,
    interruptedTasks: a2a?.lease.interrupted ?? 0,
    async close() {
      await Promise.all([a2a?.close(), mcp?.close()]);
    },
  };
}
