import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Store } from '../store/store.js';
import { networkPolicyFromEnv } from '../tools/guards/ssrf.js';
import { createA2aApp, type A2aAppOptions, type ServedSyndicate } from './createA2aApp.js';
import { failInterruptedTasks } from './taskStore.js';
import { parseTrustProxy } from './trustProxy.js';

// Runs the A2A face as its own HTTP server (`syndicate serve-a2a`). Refuses to start exposed
// without a secret; marks tasks a dead process left running as failed before taking requests.

export interface ServeA2aOptions extends Pick<A2aAppOptions, 'maxBodyBytes' | 'rateLimit' | 'pushTimeoutMs' | 'observers' | 'warn' | 'resolveHost' | 'turnOptions' | 'afterTurn' | 'version' | 'moreAgents'> {
  agents: readonly ServedSyndicate[];
  store: Store;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /**
   * Reads A2A_SERVER_SECRET, PUBLIC_URL, A2A_TRUST_PROXY, and the SSRF guard's ALLOW_PRIVATE_MCP /
   * SYNDICATE_ALLOWED_HOSTS for webhooks.
   */
  env: NodeJS.ProcessEnv;
  /** Time allowed to receive a request's headers, and the whole request. */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
}

export interface A2aServer {
  /** The base URL clients use (PUBLIC_URL when set). */
  url: string;
  agents: Array<{ id: string; name: string; cardUrl: string }>;
  /** The ids of the agents served beside the syndicates (moreAgents), with their card URLs. */
  moreAgents: Array<{ id: string; cardUrl: string }>;
  /** How many tasks of an earlier process were marked failed at startup. */
  interruptedTasks: number;
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
  const interruptedTasks = await failInterruptedTasks(options.store.tasks);
  const headersTimeout = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const server = createServer({
    headersTimeout,
    requestTimeout: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    // Node checks both timeouts only this often (30 s by default), which would let a slow client
    // hold a connection for far longer than the timeouts say.
    connectionsCheckingInterval: Math.min(CHECK_INTERVAL_MS, headersTimeout),
  });
  const address = await listen(server, options.host, options.port);
  const url = publicUrl ?? `http://${urlHost(options.host)}:${address.port}`;
  const { app, settled } = createA2aApp({
    ...options,
    baseUrl: url,
    secret,
    // Behind PUBLIC_URL a proxy forwards the public name in Host: only a bare loopback bind checks it.
    loopbackOnly: loopback && publicUrl === undefined,
    trustProxy,
    // ALLOW_PRIVATE_MCP and SYNDICATE_ALLOWED_HOSTS open webhook addresses, as they do for MCP servers.
    webhookPolicy: networkPolicyFromEnv(options.env),
  });
  server.on('request', app);
  return {
    url,
    agents: options.agents.map(({ id, syndicate }) => ({ id, name: syndicate.name, cardUrl: `${url}/${id}/.well-known/agent-card.json` })),
    moreAgents: (options.moreAgents ?? []).map(({ id }) => ({ id, cardUrl: `${url}/${id}/.well-known/agent-card.json` })),
    interruptedTasks,
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Streams (SSE) stay open until their task ends: closing the server ends them now.
        server.closeAllConnections();
      });
      await settled();
    },
  };
}
