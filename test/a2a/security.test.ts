import { request } from 'node:http';
import { connect } from 'node:net';
import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { siloFor } from '../../src/memory/silo.js';
import type { A2aTurnRequest } from '../../src/a2a/executor.js';
import { A2aConfigError } from '../../src/a2a/serveA2a.js';
import { clientFor, createGate, sendRequest, startServer, type TestServer } from './fixtures.js';
import { assistant } from './syndicates.js';

// Authentication, exposure rules and the HTTP guards in front of the protocol.

const SECRET = 'correct horse battery staple';
const AUTH = { authorization: `Bearer ${SECRET}` };

let server: TestServer | undefined;

afterEach(async () => {
  await server?.stop();
  server = undefined;
});

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request with full control of its headers (fetch will not set Host). */
function raw(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const getTaskBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } });
const jsonHeaders = { 'content-type': 'application/json', 'a2a-version': '1.0' };

describe('with a secret', () => {
  it('declares the bearer scheme on the public card', async () => {
    server = await startServer(assistant(createGate().tool), { env: { A2A_SERVER_SECRET: SECRET } });

    const card = JSON.parse((await raw(`${server.url}/.well-known/agent-card.json`, { headers: { 'a2a-version': '1.0' } })).body);

    expect(Object.keys(card.securityRequirements[0].schemes)).toEqual(['bearer']);
    expect(card.securitySchemes.bearer.httpAuthSecurityScheme).toMatchObject({ scheme: 'Bearer' });
  });

  it('refuses a request without a token, or with a wrong one, with 401', async () => {
    server = await startServer(assistant(createGate().tool), { env: { A2A_SERVER_SECRET: SECRET } });

    const missing = await raw(`${server.url}/jsonrpc`, { method: 'POST', headers: jsonHeaders, body: getTaskBody });
    const wrong = await raw(`${server.url}/jsonrpc`, { method: 'POST', headers: { ...jsonHeaders, authorization: 'Bearer guess' }, body: getTaskBody });

    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toContain('Bearer');
    expect(wrong.status).toBe(401);
  });

  it('serves a client that sends the token', async () => {
    server = await startServer(assistant(createGate().tool), { env: { A2A_SERVER_SECRET: SECRET } });
    const client = await clientFor(server.url, 'HTTP+JSON', AUTH);

    const task = (await client.sendMessage(sendRequest('hello'))) as { status?: { state: number } };

    expect(task.status?.state).toBe(3);
  });

  it('gives an authenticated caller the extended card, with every agent and its model', async () => {
    server = await startServer(assistant(createGate().tool), { env: { A2A_SERVER_SECRET: SECRET } });
    const client = await clientFor(server.url, 'JSONRPC', AUTH);

    const card = await client.getAgentCard();

    expect(card.skills.map((skill) => skill.id)).toContain('agent:Assistant');
    expect(card.skills.find((skill) => skill.id === 'agent:Assistant')?.tags).toContain('model:scripted');
  });

  it('keeps one user\'s tasks from another, and scopes the memory silo by caller and user', async () => {
    const requests: A2aTurnRequest[] = [];
    server = await startServer(assistant(createGate().tool), { env: { A2A_SERVER_SECRET: SECRET }, turnOptions: (r) => (requests.push(r), {}) });
    const alice = await clientFor(server.url, 'JSONRPC', { ...AUTH, 'x-syndicate-user': 'alice' });
    const bob = await clientFor(server.url, 'JSONRPC', { ...AUTH, 'x-syndicate-user': 'bob' });
    const service = await clientFor(server.url, 'JSONRPC', AUTH);

    const task = (await alice.sendMessage(sendRequest('my secret plan'))) as { id: string };
    await service.sendMessage(sendRequest('hello'));

    await expect(bob.getTask({ tenant: '', id: task.id })).rejects.toBeInstanceOf(TaskNotFoundError);
    expect((await alice.getTask({ tenant: '', id: task.id })).id).toBe(task.id);
    expect(requests.map((r) => r.silo)).toEqual([siloFor('Assistant', 'alice'), siloFor('Assistant', 'client')]);
  });

  it('refuses a malformed user id with 400', async () => {
    server = await startServer(assistant(createGate().tool), { env: { A2A_SERVER_SECRET: SECRET } });

    const response = await raw(`${server.url}/jsonrpc`, { method: 'POST', headers: { ...jsonHeaders, ...AUTH, 'x-syndicate-user': '../etc' }, body: getTaskBody });

    expect(response.status).toBe(400);
    expect(response.body).toContain('x-syndicate-user');
  });

  it('announces the PUBLIC_URL in the card', async () => {
    server = await startServer(assistant(createGate().tool), { env: { A2A_SERVER_SECRET: SECRET, PUBLIC_URL: 'https://agents.example.com/' } });

    expect(server.url).toBe('https://agents.example.com');
    expect(server.agents[0]?.cardUrl).toBe('https://agents.example.com/assistant/.well-known/agent-card.json');
  });
});

describe('without a secret', () => {
  it('refuses to start with PUBLIC_URL set', async () => {
    await expect(startServer(assistant(createGate().tool), { env: { PUBLIC_URL: 'https://agents.example.com' } })).rejects.toBeInstanceOf(A2aConfigError);
  });

  it('refuses to start on a non-loopback address', async () => {
    await expect(startServer(assistant(createGate().tool), { host: '0.0.0.0' })).rejects.toThrow(/A2A_SERVER_SECRET/);
  });

  it('offers no extended card', async () => {
    server = await startServer(assistant(createGate().tool));
    const client = await clientFor(server.url, 'JSONRPC');

    expect((await client.getAgentCard()).capabilities?.extendedAgentCard).toBe(false);
    await expect(client.transport.getExtendedAgentCard({ tenant: '' })).rejects.toThrow(/not found|not supported/i);
  });
});

describe('HTTP guards', () => {
  it('refuses a Host that is not a loopback name (DNS rebinding) with 403', async () => {
    server = await startServer(assistant(createGate().tool));

    const response = await raw(`${server.url}/.well-known/agent-card.json`, { headers: { host: 'attacker.example:80' } });

    expect(response.status).toBe(403);
  });

  it('refuses a cross-site Origin with 403, and accepts a loopback one', async () => {
    server = await startServer(assistant(createGate().tool));

    const foreign = await raw(`${server.url}/jsonrpc`, { method: 'POST', headers: { ...jsonHeaders, origin: 'https://attacker.example' }, body: getTaskBody });
    const local = await raw(`${server.url}/jsonrpc`, { method: 'POST', headers: { ...jsonHeaders, origin: 'http://localhost:3000' }, body: getTaskBody });

    expect(foreign.status).toBe(403);
    expect(local.status).toBe(200);
  });

  it('refuses a body that is not JSON with 415', async () => {
    server = await startServer(assistant(createGate().tool));

    const response = await raw(`${server.url}/jsonrpc`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: getTaskBody });

    expect(response.status).toBe(415);
  });

  it('refuses a body over the cap with 413', async () => {
    server = await startServer(assistant(createGate().tool), { maxBodyBytes: 1024 });
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x', padding: 'a'.repeat(2048) } });

    const response = await raw(`${server.url}/jsonrpc`, { method: 'POST', headers: jsonHeaders, body });

    expect(response.status).toBe(413);
  });

  it('accepts a body up to the 1 MiB default, beyond the SDK parser\'s own 100 kB', async () => {
    server = await startServer(assistant(createGate().tool));
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x', padding: 'a'.repeat(500_000) } });

    const response = await raw(`${server.url}/jsonrpc`, { method: 'POST', headers: jsonHeaders, body });

    expect(response.status).toBe(200);
    expect(JSON.parse(response.body).error.code).toBe(-32001);
  });

  it('limits each client\'s request rate with 429 and Retry-After', async () => {
    server = await startServer(assistant(createGate().tool), { rateLimit: { perSecond: 0.5, burst: 2 } });
    const card = `${server.url}/.well-known/agent-card.json`;

    const statuses = [(await raw(card)).status, (await raw(card)).status];
    const limited = await raw(card);

    expect(statuses).toEqual([200, 200]);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('2');
  });

  it('answers a client that never finishes its headers with 408 and closes the connection', async () => {
    server = await startServer(assistant(createGate().tool), { headersTimeoutMs: 200 });
    const { port } = new URL(server.url);

    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('POST /jsonrpc HTTP/1.1\r\nHost: 127.0.0.1\r\n'));
      let received = '';
      socket.on('data', (chunk) => (received += chunk));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });

    expect(reply).toMatch(/^HTTP\/1\.1 408/);
  });
});
