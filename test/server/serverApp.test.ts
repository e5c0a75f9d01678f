import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/app/startServer.js';
import { createPlatform } from '../../src/platform/createPlatform.js';
import { loadSyndicates } from '../../src/server/app/syndicateRegistry.js';
import { memoryRoutes } from '../../src/server/memory/memoryRoutes.js';
import { SHIPPED_PRICES } from '../../src/telemetry/ledger/prices.js';
import { idleTurns, startTestServer, tokenAuth, type TestServer } from './serverFixture.js';

// The server process's own surface: health, the /api/v1 edge (limits, bad JSON, unknown routes),
// the OpenAPI document, the A2A and MCP faces behind the same authentication, and startup refusals.

let t: TestServer;

beforeAll(async () => {
  // With the memory routes, as `syndicate serve` mounts them: the OpenAPI document is the one it serves.
  t = await startTestServer(['council.yaml'], { routes: memoryRoutes });
});

afterAll(async () => {
  await t.server.close({ graceMs: 0 });
});

describe('health', () => {
  it('answers /healthz without credentials', async () => {
    const response = await fetch(`${t.server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toStrictEqual({ status: 'ok' });
  });

  it('answers /readyz once the store is reachable', async () => {
    expect((await fetch(`${t.server.url}/readyz`)).status).toBe(200);
  });
});

describe('the /api/v1 edge', () => {
  it('answers an unknown route with a 404 problem', async () => {
    const response = await t.api('/nothing-here');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(((await response.json()) as { detail: string }).detail).toContain('openapi.json');
  });

  it('answers a body over the limit with a 413 problem', async () => {
    const response = await t.api('/syndicates/validate', { method: 'POST', body: JSON.stringify({ yaml: 'x'.repeat(2 * 1024 * 1024) }) });
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
  });

  it('refuses a stranger before reading the body: 401, not 413 or 400', async () => {
    for (const body of [JSON.stringify({ yaml: 'x'.repeat(2 * 1024 * 1024) }), '{"yaml": ']) {
      const response = await fetch(`${t.server.url}/api/v1/syndicates/validate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(response.status).toBe(401);
    }
  });

  it('answers malformed JSON with a 400 problem', async () => {
    const response = await t.api('/syndicates/validate', { method: 'POST', body: '{"yaml": ' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { detail: string }).detail).toContain('not valid JSON');
  });

  it('serves the OpenAPI document of every route without credentials', async () => {
    const response = await fetch(`${t.server.url}/api/v1/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, Record<string, { operationId: string }>> };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toStrictEqual(expect.arrayContaining(['/syndicates', '/syndicates/{id}', '/sessions', '/sessions/{id}/fork', '/usage', '/openapi.json']));
    expect(document.paths['/sessions/{id}']!.delete!.operationId).toBe('deleteSession');
  });
});

describe('the OpenAPI document', () => {
  it("is valid OpenAPI 3.1 by the specification's own schema, every reference resolving", async () => {
    const document = (await (await fetch(`${t.server.url}/api/v1/openapi.json`)).json()) as Record<string, unknown>;

    const result = await new Validator().validate(document);

    expect(result.errors ?? []).toStrictEqual([]);
    expect(result.valid).toBe(true);
  });
});

describe('the A2A face', () => {
  it("serves each syndicate's agent card at /a2a/<id>/ with the server's URL", async () => {
    const response = await fetch(`${t.server.url}/a2a/council/.well-known/agent-card.json`);
    expect(response.status).toBe(200);
    const card = (await response.json()) as { name: string; supportedInterfaces?: Array<{ url: string }>; url?: string };
    expect(card.name).toBe('Council');
    expect(JSON.stringify(card)).toContain(`${t.server.url}/a2a/council`);
  });

  it('refuses a JSON-RPC call without an API key', async () => {
    const response = await fetch(`${t.server.url}/a2a/council/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }),
    });
    expect(response.status).toBe(401);
  });

  it('lets a caller with an API key through to the agent', async () => {
    const response = await fetch(`${t.server.url}/a2a/council/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer alice-key', 'a2a-version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'no-such-task' } }),
    });
    const body = (await response.json()) as { error?: { message: string } };
    expect(response.status).not.toBe(401);
    expect(body.error?.message ?? '').not.toMatch(/authentication/i);
  });
});

describe('the MCP face', () => {
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '0' } } };

  it('refuses a request without an API key', async () => {
    const response = await fetch(`${t.server.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(initialize) });
    expect(response.status).toBe(401);
  });

  it('initializes a session for a caller with an API key', async () => {
    const response = await fetch(`${t.server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer alice-key' },
      body: JSON.stringify(initialize),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('"serverInfo"');
  });
});

describe('startup', () => {
  it('refuses a non-loopback host without an admin, saying how to fix it', async () => {
    const platform = await createPlatform({ store: `${t.folder}/refused.db`, env: {} });
    const registry = loadSyndicates([], { platform, warn: () => {}, offline: true, watch: false });
    await expect(
      startServer({ platform, syndicates: registry, auth: tokenAuth(), turns: idleTurns(), host: '0.0.0.0', port: 0, adminConfigured: false, version: '0', prices: SHIPPED_PRICES, warn: () => {} }),
    ).rejects.toThrow(/SYNDICATE_ADMIN_TOKEN.*127\.0\.0\.1/);
    await platform.close();
  });

  it('waits for the turn service to drain on close and reports what it said', async () => {
    const platform = await createPlatform({ store: `${t.folder}/drain.db`, env: {} });
    const registry = loadSyndicates([], { platform, warn: () => {}, offline: true, watch: false });
    const asked: number[] = [];
    const turns = { ...idleTurns(), drain: async (graceMs: number) => (asked.push(graceMs), { finished: 1, interrupted: 2 }) };
    const server = await startServer({ platform, syndicates: registry, auth: tokenAuth(), turns, host: '127.0.0.1', port: 0, adminConfigured: false, version: '0', prices: SHIPPED_PRICES, warn: () => {} });
    expect(await server.close({ graceMs: 1234 })).toStrictEqual({ finished: 1, interrupted: 2 });
    expect(asked).toStrictEqual([1234]);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });
});
