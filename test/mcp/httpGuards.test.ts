import { request as httpRequest } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkHttpExposure, type McpHttpServer } from '../../src/mcp/http/serveHttp.js';
import { isLoopbackHost, parseListenAddress } from '../../src/mcp/http/listenAddress.js';
import { clerk, connectHttp, serveSyndicates, served, tempStore, type TestStore } from './fixtures.js';

const TOKEN = 'a-test-token-of-sufficient-length';

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

/** fetch cannot set Host (a forbidden header), so this one request goes through node:http. */
function postWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
    request.end(INITIALIZE);
  });
}

function post(url: string, headers: Record<string, string>): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: INITIALIZE });
}

describe('the HTTP face refuses requests it must not serve', () => {
  let db: TestStore;
  let server: McpHttpServer;

  beforeEach(async () => {
    db = await tempStore();
  });

  afterEach(async () => {
    await server.close();
    await db.dispose();
  });

  it('refuses a browser Origin that is not localhost (DNS rebinding)', async () => {
    server = await serveSyndicates([served(clerk(), db.store)]);

    const response = await post(server.url, { origin: 'http://evil.example' });

    expect(response.status).toBe(403);
  });

  it('accepts a localhost Origin on a loopback bind', async () => {
    server = await serveSyndicates([served(clerk(), db.store)]);

    const response = await post(server.url, { origin: 'http://localhost:5173' });

    expect(response.status).toBe(200);
  });

  it('accepts an Origin the server was told to allow', async () => {
    server = await serveSyndicates([served(clerk(), db.store)], { allowedOrigins: ['app.example'] });

    const response = await post(server.url, { origin: 'https://app.example' });

    expect(response.status).toBe(200);
  });

  it('refuses a Host header that is not a loopback name on a loopback bind', async () => {
    server = await serveSyndicates([served(clerk(), db.store)]);

    const status = await postWithHost(server.url, 'rebound.example:80');

    expect(status).toBe(403);
  });

  it('refuses a request without the bearer token with 401 and a Bearer challenge', async () => {
    server = await serveSyndicates([served(clerk(), db.store)], { token: TOKEN });

    const response = await post(server.url, {});

    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('refuses a wrong bearer token', async () => {
    server = await serveSyndicates([served(clerk(), db.store)], { token: TOKEN });

    const response = await post(server.url, { authorization: `Bearer ${TOKEN}x` });

    expect(response.status).toBe(401);
  });

  it('serves a client that sends the bearer token', async () => {
    server = await serveSyndicates([served(clerk(), db.store)], { token: TOKEN });

    const client = await connectHttp(server.url, 'auto', { authorization: `Bearer ${TOKEN}` });
    const { tools } = await client.listTools();
    await client.close();

    expect(tools.map((tool) => tool.name)).toEqual(['ask_clerk']);
  });
});

describe('HTTP exposure rules', () => {
  const tokens = (token: string | undefined, userTokens = 0) => ({ token, tokenVariable: 'SYNDICATE_MCP_TOKEN', userTokens, userTokensVariable: 'SYNDICATE_MCP_USER_TOKENS' });

  it('refuses to listen on a non-loopback host without a token', () => {
    expect(() => checkHttpExposure('0.0.0.0', tokens(undefined))).toThrow(/without a bearer token: set SYNDICATE_MCP_TOKEN/);
  });

  it('refuses a token too short to resist guessing', () => {
    expect(() => checkHttpExposure('0.0.0.0', tokens('short'))).toThrow(/too short/);
  });

  it('allows a non-loopback host with user tokens and no shared token', () => {
    expect(() => checkHttpExposure('0.0.0.0', tokens(undefined, 2))).not.toThrow();
  });

  it('allows a loopback host without a token', () => {
    expect(() => checkHttpExposure('127.0.0.1', tokens(undefined))).not.toThrow();
  });

  it('reads [host:]port with loopback as the default host', () => {
    expect(parseListenAddress('8000')).toEqual({ host: '127.0.0.1', port: 8000 });
    expect(parseListenAddress('0.0.0.0:9000')).toEqual({ host: '0.0.0.0', port: 9000 });
    expect(parseListenAddress('[::1]:8000')).toEqual({ host: '::1', port: 8000 });
    expect(() => parseListenAddress('localhost:http')).toThrow(/valid port/);
  });

  it('knows which hosts are loopback', () => {
    expect(['127.0.0.1', '127.8.0.1', 'localhost', '::1', '[::1]'].map(isLoopbackHost)).toEqual([true, true, true, true, true]);
    expect(['0.0.0.0', '192.168.1.2', 'example.com', '::'].map(isLoopbackHost)).toEqual([false, false, false, false]);
  });
});
