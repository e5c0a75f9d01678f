import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, isLegacyRequest, type McpServerFactory } from '@modelcontextprotocol/server';
import { authInfoFor } from '../callerAuth.js';
import { guardRequest, type HttpGuardPolicy } from './httpGuards.js';
import { createLegacySessions } from './legacySessions.js';
import { isLoopbackHost, urlHost, type ListenAddress } from './listenAddress.js';
import { MIN_TOKEN_LENGTH } from './bearerToken.js';
import type { UserTokens } from './userTokens.js';

// Streamable HTTP for an MCP server factory, at /mcp: the 2026-07-28 revision through the SDK's
// per-request handler, 2025-era clients through MCP sessions (see legacySessions.ts), every
// request behind the Host/Origin/bearer guards, which name its caller to the server factory.

const MCP_PATH = '/mcp';

export interface McpHttpOptions extends ListenAddress {
  /** The shared bearer token; a token (this or a user's) is required when `host` is not loopback. */
  token?: string;
  /** Bearer tokens that each authenticate one user (token -> user). */
  userTokens?: UserTokens;
  /** Origin hostnames allowed beyond localhost (browser-based clients). */
  allowedOrigins?: readonly string[];
  /** Told about errors no response can carry (a broken stream, a failed close). */
  onerror?: (error: Error) => void;
}

export interface McpHttpServer {
  /** e.g. http://127.0.0.1:8000/mcp (the real port when 0 was asked for). */
  url: string;
  close(): Promise<void>;
}

export interface HttpTokens {
  /** The shared token, and the variable it is read from. */
  token: string | undefined;
  tokenVariable: string;
  /** How many user tokens there are, and the variable they are read from. */
  userTokens: number;
  userTokensVariable: string;
}

/** Refuses a configuration that would expose the server without a token; the message says how to fix it. */
export function checkHttpExposure(host: string, tokens: HttpTokens): void {
  const { token, tokenVariable } = tokens;
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH) {
    throw new Error(`${tokenVariable} is too short: use at least ${MIN_TOKEN_LENGTH} random characters (e.g. openssl rand -hex 32)`);
  }
  if (!isLoopbackHost(host) && token === undefined && tokens.userTokens === 0) {
    throw new Error(`refusing to listen on ${host} without a bearer token: set ${tokenVariable} (e.g. openssl rand -hex 32) or ${tokens.userTokensVariable}, or listen on 127.0.0.1`);
  }
}

function notFound(): Response {
  return Response.json({ jsonrpc: '2.0', error: { code: -32601, message: `Not found: the MCP endpoint is ${MCP_PATH}` }, id: null }, { status: 404 });
}

function listen(server: HttpServer, { host, port }: ListenAddress): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

export async function serveMcpHttp(factory: McpServerFactory, options: McpHttpOptions): Promise<McpHttpServer> {
  const onerror = options.onerror ?? ((error: Error) => void process.stderr.write(`warning: MCP HTTP: ${error.message}\n`));
  const policy: HttpGuardPolicy = {
    loopback: isLoopbackHost(options.host),
    token: options.token,
    userTokens: options.userTokens ?? new Map(),
    allowedOrigins: options.allowedOrigins ?? [],
  };
  const modern = createMcpHandler(factory, { legacy: 'reject', onerror });
  const legacy = createLegacySessions(factory, onerror);
  const handler = toNodeHandler(
    {
      async fetch(request) {
        if (new URL(request.url).pathname !== MCP_PATH) return notFound();
        const guarded = guardRequest(request, policy);
        if ('refused' in guarded) return guarded.refused;
        const authInfo = authInfoFor(guarded.caller);
        return (await isLegacyRequest(request)) ? legacy.handle(request, authInfo) : modern.fetch(request, { authInfo });
      },
    },
    { onerror },
  );
  const http = createServer((req, res) => void handler(req, res));
  const address = await listen(http, options);
  return {
    url: `http://${urlHost(address.address)}:${address.port}${MCP_PATH}`,
    async close() {
      await Promise.all([modern.close(), legacy.close()]);
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      // Open SSE streams would hold close() forever.
      http.closeAllConnections();
      await closed;
    },
  };
}
