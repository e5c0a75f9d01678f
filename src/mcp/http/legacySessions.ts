import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport, type AuthInfo, type McpServer, type McpServerFactory, type Server } from '@modelcontextprotocol/server';

// 2025-era (initialize-handshake) clients, served with MCP sessions rather than the SDK's
// stateless fallback: a client cancels a call with a `notifications/cancelled` POST, which only
// reaches the running tool when it lands on the same server instance as the call. A session's
// server is built for the caller that opened it, so only that caller may use it.

export interface LegacySessions {
  /** `authInfo` names the caller the guards accepted (see callerAuth.ts). */
  handle(request: Request, authInfo: AuthInfo): Promise<Response>;
  close(): Promise<void>;
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });
}

export function createLegacySessions(factory: McpServerFactory, onerror: (error: Error) => void): LegacySessions {
  const sessions = new Map<string, { transport: WebStandardStreamableHTTPServerTransport; server: McpServer | Server; owner: string }>();

  const open = async (request: Request, authInfo: AuthInfo): Promise<Response> => {
    const server = await factory({ era: 'legacy', requestInfo: request, authInfo });
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => void sessions.set(id, { transport, server, owner: authInfo.clientId }),
      onsessionclosed: (id) => void sessions.delete(id),
    });
    transport.onerror = onerror;
    await server.connect(transport);
    const response = await transport.handleRequest(request, { authInfo });
    // A request that did not open a session (not an initialize) leaves nothing to keep.
    if (transport.sessionId === undefined) await server.close();
    return response;
  };

  return {
    async handle(request, authInfo) {
      const id = request.headers.get('mcp-session-id');
      if (id === null) {
        if (request.method !== 'POST') return jsonRpcError(400, -32000, 'Bad Request: no mcp-session-id header; open a session with an initialize request first');
        return open(request, authInfo);
      }
      const session = sessions.get(id);
      if (session === undefined) return jsonRpcError(404, -32001, 'Session not found: it ended or the server restarted; initialize a new one');
      if (session.owner !== authInfo.clientId) return jsonRpcError(403, -32001, 'Forbidden: this MCP session was opened by another caller; initialize a session of your own');
      return session.transport.handleRequest(request, { authInfo });
    },
    async close() {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map(({ server }) => server.close()));
    },
  };
}
