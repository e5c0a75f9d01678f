import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler, type NodeMcpRequestHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, isLegacyRequest, type AuthInfo, type McpServerFactory } from '@modelcontextprotocol/server';
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

/** Decides whether a request reaches MCP, and as whom; `authInfo` is what the host's own authentication attached (req.auth). */
export type McpAdmission = (request: Request, authInfo: AuthInfo | undefined) => { authInfo: AuthInfo } | { refused: Response };

export interface McpHttpHandler {
  /** A Node request handler for the MCP endpoint (any other path: a JSON-RPC 404). */
  handle: NodeMcpRequestHandler;
  close(): Promise<void>;
}

/** The MCP endpoint without a server of its own: `syndicate serve` mounts it on its port, authenticated by its users' keys. */
export function createMcpHttpHandler(factory: McpServerFactory, admit: McpAdmission, onerror: (error: Error) => void): McpHttpHandler {
  const modern = createMcpHandler(factory, { legacy: 'reject', onerror });
  const legacy = createLegacySessions(factory, onerror);
  const handle = toNodeHandler(
    {
      async fetch(request, options) {
        if (new URL(request.url).pathname !== MCP_PATH) return notFound();
        const admitted = admit(request, options?.authInfo);
        if ('refused' in admitted) return admitted.refused;
        return (await isLegacyRequest(request)) ? legacy.handle(request, admitted.authInfo) : modern.fetch(request, { authInfo: admitted.authInfo });
      },
    },
    { onerror },
  );
  return { handle, close: async () => void (await Promise.all([modern.close(), legacy.close()])) };
}

export async function serveMcpHttp(factory: McpServerFactory, options: McpHttpOptions): Promise<McpHttpServer> {
  const onerror = options.onerror ?? ((error: Error) => void process.stderr.write(`warning: MCP HTTP: ${error.message}\n`));
  const policy: HttpGuardPolicy = {
    loopback: isLoopbackHost(options.host),
    token: options.token,
    userTokens: options.userTokens ?? new Map(),
    allowedOrigins: options.allowedOrigins ?? [],
  };
  const mcp = createMcpHttpHandler(
    factory,
    (request) => {
      const guarded = guardRequest(request, policy);
      return 'refused' in guarded ? guarded : { authInfo: authInfoFor(guarded.caller) };
    },
    onerror,
  );
  const http = createServer((req, res) => void mcp.handle(req, res));
  const address = await listen(http, options);
  return {
    url: `http://${urlHost(address.address)}:${address.port}${MCP_PATH}`,
    async close() {
      await mcp.close();
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      // Open SSE streams would hold close() forever.
      http.closeAllConnections();
      await closed;
    },
  };
}
