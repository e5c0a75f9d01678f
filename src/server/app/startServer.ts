import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isLoopbackHost } from '../../a2a/serveA2a.js';
import { runnerName } from '../../a2a/taskLease.js';
import { createServerApp, type ServerApp, type ServerAppOptions } from './createServerApp.js';
import type { WatchedSyndicateRegistry } from './syndicateRegistry.js';

// Listens for `syndicate serve` and shuts down in order: stop accepting, let running turns end
// within the grace period (the turn service cancels the rest), close the faces, the registry and
// the platform. Prints nothing: the command says what it wants to.

export interface StartServerOptions extends Omit<ServerAppOptions, 'baseUrl' | 'runner' | 'syndicates' | 'loopbackOnly'> {
  syndicates: WatchedSyndicateRegistry;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Whether the auth service has an admin (SYNDICATE_ADMIN_TOKEN or a stored one): required off loopback. */
  adminConfigured: boolean;
  /** The URL clients reach the server at (behind a proxy); http://host:port by default. */
  publicUrl?: string;
  /** Time allowed to receive a request's headers (15 s), and the whole request (60 s), as serve-a2a allows. */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
}

const DEFAULT_HEADERS_TIMEOUT_MS = 15_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
const CHECK_INTERVAL_MS = 1_000;

export interface RunningServer {
  /** e.g. http://127.0.0.1:7700 (the real port when 0 was asked for). */
  url: string;
  port: number;
  app: ServerApp;
  /** Graceful shutdown; resolves once everything is closed. Safe to call twice. */
  close(options?: { graceMs?: number }): Promise<{ finished: number; interrupted: number }>;
}

export class ServerConfigError extends Error {
  override readonly name = 'ServerConfigError';
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

export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  if (!isLoopbackHost(options.host) && !options.adminConfigured) {
    throw new ServerConfigError(
      `refusing to listen on ${options.host} without an admin: anyone who can reach it could sign in first. Set SYNDICATE_ADMIN_TOKEN to a long random string (e.g. openssl rand -hex 32), or add an admin to the store (syndicate users add <id> --role admin, then syndicate keys create --user <id>), or listen on 127.0.0.1 once to get the first start's sign-in link.`,
    );
  }
  // The app is built once the port is known (A2A cards name absolute URLs); requests wait for it.
  // A client whose body falls short of its Content-Length (or that sends it a byte at a time) is
  // answered 408 within the timeouts rather than holding its connection for Node's 5 minutes.
  // Streams are unaffected: the timeouts end once the request is in. Node checks them only this
  // often (30 s by default).
  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  // Node refuses a headers timeout longer than the request's.
  const headersTimeout = Math.min(options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS, requestTimeout);
  const http = createServer({ headersTimeout, requestTimeout, connectionsCheckingInterval: Math.min(CHECK_INTERVAL_MS, headersTimeout) });
  const address = await listen(http, options.host, options.port);
  const url = options.publicUrl?.replace(/\/+$/, '') ?? `http://${urlHost(options.host)}:${address.port}`;
  let app: ServerApp;
  try {
    // Behind PUBLIC_URL a proxy forwards the public name in Host: only a bare loopback bind checks it.
    const loopbackOnly = isLoopbackHost(options.host) && options.publicUrl === undefined;
    app = await createServerApp({ ...options, baseUrl: url, runner: runnerName(options.host, address.port), loopbackOnly });
  } catch (error) {
    await new Promise((resolve) => http.close(resolve));
    throw error;
  }
  http.on('request', app.app);
  let closing: Promise<{ finished: number; interrupted: number }> | undefined;
  return {
    url,
    port: address.port,
    app,
    close({ graceMs = 10_000 } = {}) {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => http.close(() => resolve()));
        const drained = await options.turns.drain(graceMs);
        // Streams (SSE, MCP) stay open until their turn ends: the turns have ended now.
        http.closeAllConnections();
        await closed;
        await app.close();
        await options.syndicates.close();
        await options.platform.close();
        return drained;
      })();
      return closing;
    },
  };
}
