import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Store } from '../store/store.js';
import { networkPolicyFromEnv, type NetworkPolicy } from '../tools/guards/ssrf.js';
import { createA2aApp, type A2aAppOptions, type ServedSyndicate } from './createA2aApp.js';
import { rateLimitedWarning, warnOnStderr } from './rateLimitedWarning.js';
import { DEFAULT_LEASE_MS, holdTaskLease, runnerName } from './taskLease.js';
import { parseTrustProxy } from './trustProxy.js';

// Runs the A2A face as its own HTTP server (`syndicate serve-a2a`). Refuses to start exposed
// without a secret; before taking requests, takes its task lease and marks failed the tasks dead
// processes left running (see taskLease.ts), and hears the cancels other servers on the database
// send for the turns it runs (see cancelElsewhere.ts).

export interface ServeA2aOptions extends Pick<A2aAppOptions, 'maxBodyBytes' | 'rateLimit' | 'pushTimeoutMs' | 'observers' | 'warn' | 'resolveHost' | 'turnOptions' | 'afterTurn' | 'version' | 'moreAgents'> {
  agents: readonly ServedSyndicate[];
  store: Store;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /**
   * Reads A2A_SERVER_SECRET, PUBLIC_URL, A2A_TRUST_PROXY, and the SSRF guard's ALLOW_PRIVATE_MCP /
   * SYNDICATE_ALLOWED_HOSTS for webhooks unless `webhookPolicy` is given.
   */
  env: NodeJS.ProcessEnv;
  /** Which addresses push webhooks may have (the platform's network policy). */
  webhookPolicy?: NetworkPolicy;
  /** Time allowed to receive a request's headers, and the whole request. */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /**
   * How long the task lease lasts without a heartbeat (renewed every third of it): a server that
   * dies leaves its running tasks to be marked failed by another once it expires. 30 s by default.
   */
  leaseMs?: number;
}

export interface A2aServer {
  /** The base URL clients use (PUBLIC_URL when set). */
  url: string;
  agents: Array<{ id: string; name: string; cardUrl: string }>;
  /** The ids of the agents served beside the syndicates (moreAgents), with their card URLs. */
  moreAgents: Array<{ id: string; cardUrl: string }>;
  /** How many tasks of an earlier process were marked failed at startup. */
  interruptedTasks: number;
  /** This server's task lease name. */
  runner: string;
  close(): Promise<void>;
}

export class A2aConfigError extends Error {
  override readonly name = 'A2aConfigError';
}

const DEFAULT_HEADERS_TIMEOUT_MS = 15_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
const CHECK_INTERVAL_MS = 1_000;

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

function listen(server: Server, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

export async function serveA2a(options: ServeA2aOptions): Promise<A2aServer> {
  const secret = options.env.A2A_SERVER_SECRET || undefined;
  const publicUrl = options.env.PUBLIC_URL?.replace(/\/+$/, '') || undefined;
  const loopback = isLoopbackHost(options.host);
  if (secret === undefined && (publicUrl !== undefined || !loopback)) {
    const why = publicUrl !== undefined ? `PUBLIC_URL is set (${publicUrl})` : `it would listen on ${options.host}, which other machines can reach`;
    throw new A2aConfigError(`refusing to serve A2A without a secret: ${why}. Set A2A_SERVER_SECRET to a long random string (clients send it as a bearer token), or bind to 127.0.0.1.`);
  }
  const trustProxy = options.env.A2A_TRUST_PROXY ? parseTrustProxy(options.env.A2A_TRUST_PROXY) : undefined;
  if (trustProxy instanceof Error) throw new A2aConfigError(trustProxy.message);
  const headersTimeout = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const server = createServer({
    headersTimeout,
    requestTimeout: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    // Node checks both timeouts only this often (30 s by default), which would let a slow client
    // hold a connection for far longer than the timeouts say.
    connectionsCheckingInterval: Math.min(CHECK_INTERVAL_MS, headersTimeout),
  });
  // Requests that arrive before the lease is taken wait for it.
  const early: Array<[IncomingMessage, ServerResponse]> = [];
  const hold = (req: IncomingMessage, res: ServerResponse): void => void early.push([req, res]);
  server.on('request', hold);
  const address = await listen(server, options.host, options.port);
  const url = publicUrl ?? `http://${urlHost(options.host)}:${address.port}`;
  // The lease is named for the address listened on, so it is taken once that address is this process's.
  const runner = runnerName(options.host, address.port);
  const warn = options.warn ?? warnOnStderr;
  const lease = await holdTaskLease(options.store.tasks, { runner, leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS, warn }).catch(async (error: unknown) => {
    await new Promise((resolve) => server.close(resolve));
    throw error;
  });
  const { app, settled, abortTurn } = createA2aApp({
    ...options,
    runner,
    baseUrl: url,
    secret,
    // Behind PUBLIC_URL a proxy forwards the public name in Host: only a bare loopback bind checks it.
    loopbackOnly: loopback && publicUrl === undefined,
    trustProxy,
    // ALLOW_PRIVATE_MCP and SYNDICATE_ALLOWED_HOSTS open webhook addresses, as they do for MCP servers.
    webhookPolicy: options.webhookPolicy ?? networkPolicyFromEnv(options.env),
  });
  // A cancel that reached another server for a turn this one runs (see cancelElsewhere.ts).
  const cancelWarning = rateLimitedWarning(warn);
  const cancels = await options.store.tasks
    .watchCancels(({ agent, taskId }) => abortTurn(agent, taskId), {
      onError: (error) => cancelWarning(`warning: a cancel sent from another server may be missed: ${error.message}`),
    })
    .catch(async (error: unknown) => {
      await new Promise((resolve) => server.close(resolve));
      await lease.end();
      throw error;
    });
  server.off('request', hold);
  server.on('request', app);
  for (const [req, res] of early.splice(0)) app(req, res);
  return {
    url,
    agents: options.agents.map(({ id, syndicate }) => ({ id, name: syndicate.name, cardUrl: `${url}/${id}/.well-known/agent-card.json` })),
    moreAgents: (options.moreAgents ?? []).map(({ id }) => ({ id, cardUrl: `${url}/${id}/.well-known/agent-card.json` })),
    interruptedTasks: lease.interrupted,
    runner,
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Streams (SSE) stay open until their task ends: closing the server ends them now.
        server.closeAllConnections();
      });
      await settled();
      await cancels.stop();
      await lease.end();
    },
  };
}
