import { describe, expect, it } from 'vitest';
import { expectNoInternals, problemOf, useHostileServer } from './hostileFixture.js';

// A studio session cookie that is not percent-encoding is no cookie this server set: the request
// has no credentials (401 in each face's shape), rather than a 500 or express's error page.

const s = useHostileServer();

const cookie = { cookie: 'syndicate_session=%ff%' };

describe('a session cookie that is not percent-encoding', () => {
  it('is a 401 problem on the API, not a 500', async () => {
    const response = await fetch(`${s.t.server.url}/api/v1/sessions`, { headers: cookie });

    expect(response.status).toBe(401);
    await problemOf(response);
  });

  it('is a JSON-RPC 401 on MCP, not an HTML page with a stack trace', async () => {
    const response = await fetch(`${s.t.server.url}/mcp`, {
      method: 'POST',
      headers: { ...cookie, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const text = await response.text();

    expect(response.status).toBe(401);
    expect(JSON.parse(text)).toMatchObject({ jsonrpc: '2.0', error: { code: -32001 } });
    expectNoInternals(text);
  });

  it("is a JSON-RPC 401 on A2A's JSON-RPC endpoint, not an HTML page with a stack trace", async () => {
    const response = await fetch(`${s.t.server.url}/a2a/council/jsonrpc`, {
      method: 'POST',
      headers: { ...cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 'x' } }),
    });
    const text = await response.text();

    expect(response.status).toBe(401);
    expect(JSON.parse(text)).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    expectNoInternals(text);
  });
});
