import { connect, type Socket } from 'node:net';
import { TaskNotFoundError, UnsupportedOperationError } from '@a2a-js/sdk/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { siloFor } from '../../src/core/silo.js';
import type { A2aTurnRequest } from '../../src/a2a/executor.js';
import { A2aConfigError } from '../../src/a2a/serveA2a.js';
import { BINDINGS, clientFor, createGate, sendRequest, startServer, type TestServer } from './fixtures.js';
import { raw, type RawResponse } from './rawHttp.js';
import { assistant } from './syndicates.js';

// Authentication, exposure rules and the HTTP guards in front of the protocol.

const SECRET = 'correct horse battery staple';
const AUTH = { authorization: `Bearer ${SECRET}` };

let server: TestServer | undefined;

afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const getTaskBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } });
const jsonHeaders = { 'content-type': 'application/json', 'a2a-version': '1.0' };

/** Sends a JSON-RPC request's headers at once, then its body as `sendBody` does; resolves to the start of the server's answer. */
function slowRequest(url: string, sendBody: (socket: Socket) => void): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(`POST /jsonrpc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nA2A-Version: 1.0\r\nContent-Length: ${getTaskBody.length}\r\n\r\n`);
      sendBody(socket);
    });
    socket.once('data', (chunk) => {
      resolve(String(chunk));
      socket.destroy();
    });
    socket.on('close', () => resolve(''));
    socket.on('error', reject);
  });
}

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

  // The SDK answers UnsupportedOperation (-32004) when the card declares no extended card.
  // ExtendedAgentCardNotConfigured (-32007) is for a card that declares one the server cannot
  // give, and cannot occur here: with a secret the card declares it and every agent's handler has
  // a provider, and a caller without the secret is refused (401) before the handler.
  it('offers no extended card, answering a request for it with UnsupportedOperation (-32004)', async () => {
    server = await startServer(assistant(createGate().tool));
    // The transport alone sends no A2A-Version (the client adds it): without it, this would be a 0.3 request.
    const client = await clientFor(server.url, 'JSONRPC', { 'A2A-Version': '1.0' });
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetExtendedAgentCard', params: {} });

    const reply = JSON.parse((await raw(`${server.url}/jsonrpc`, { method: 'POST', headers: jsonHeaders, body })).body);

    expect((await client.getAgentCard()).capabilities?.extendedAgentCard).toBe(false);
    await expect(client.transport.getExtendedAgentCard({ tenant: '' })).rejects.toBeInstanceOf(UnsupportedOperationError);
    expect(reply.error.code).toBe(-32004);
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

  it('refuses a body over the 1 MiB default with 413', async () => {
    server = await startServer(assistant(createGate().tool));
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x', padding: 'a'.repeat(1024 * 1024) } });

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

  it('refuses application/a2a+json on the JSON-RPC endpoint, whose binding requires application/json, with 415', async () => {
    server = await startServer(assistant(createGate().tool));

    const response = await raw(`${server.url}/jsonrpc`, { method: 'POST', headers: { ...jsonHeaders, 'content-type': 'application/a2a+json' }, body: getTaskBody });

    expect(response.status).toBe(415);
  });

  it('accepts application/a2a+json on the HTTP+JSON endpoint', async () => {
    server = await startServer(assistant(createGate().tool));
    const body = JSON.stringify({ message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hello' }] } });

    const response = await raw(`${server.url}/rest/message:send`, { method: 'POST', headers: { ...jsonHeaders, 'content-type': 'application/a2a+json' }, body });

    expect(response.status).toBe(200);
  });

  it('answers a client that sends its headers and then stalls its body with 408', async () => {
    server = await startServer(assistant(createGate().tool), { headersTimeoutMs: 100, requestTimeoutMs: 300 });

    const reply = await slowRequest(server.url, (socket) => socket.write(getTaskBody.slice(0, 10)));

    expect(reply).toMatch(/^HTTP\/1\.1 408/);
  });

  it('answers a client that trickles its body, a byte at a time, with 408 once the request timeout has passed', async () => {
    server = await startServer(assistant(createGate().tool), { headersTimeoutMs: 100, requestTimeoutMs: 300 });

    // Sent whole, at this pace the body would take over a second: the server must cut it short.
    const reply = await slowRequest(server.url, (socket) => {
      let sent = 0;
      const timer = setInterval(() => (sent < getTaskBody.length ? socket.write(getTaskBody[sent++]!) : clearInterval(timer)), 20);
      socket.on('close', () => clearInterval(timer));
    });

    expect(reply).toMatch(/^HTTP\/1\.1 408/);
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

interface GuardCase {
  refusal: string;
  options?: Parameters<typeof startServer>[1];
  headers?: Record<string, string>;
  body?: string;
  /** Spends the client's only token first. */
  spendToken?: boolean;
  status: number;
  rpcCode: number;
  restStatus: string;
  /** A header the refusal must keep. */
  keeps?: string;
}

const GUARD_CASES: GuardCase[] = [
  { refusal: 'a missing token', options: { env: { A2A_SERVER_SECRET: SECRET } }, status: 401, rpcCode: -32000, restStatus: 'UNAUTHENTICATED', keeps: 'www-authenticate' },
  { refusal: 'a cross-site Origin', headers: { origin: 'https://attacker.example' }, status: 403, rpcCode: -32000, restStatus: 'PERMISSION_DENIED' },
  { refusal: 'a malformed user id', headers: { 'x-syndicate-user': '../etc' }, status: 400, rpcCode: -32600, restStatus: 'INVALID_ARGUMENT' },
  { refusal: 'a body over the cap', options: { maxBodyBytes: 1024 }, body: JSON.stringify({ padding: 'a'.repeat(2048) }), status: 413, rpcCode: -32600, restStatus: 'INVALID_ARGUMENT' },
  { refusal: 'a body that is not JSON', headers: { 'content-type': 'text/plain' }, status: 415, rpcCode: -32005, restStatus: 'INVALID_ARGUMENT' },
  { refusal: 'too many requests', options: { rateLimit: { perSecond: 0.5, burst: 1 } }, spendToken: true, status: 429, rpcCode: -32000, restStatus: 'RESOURCE_EXHAUSTED', keeps: 'retry-after' },
];

const sendBody = JSON.stringify({ message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hello' }] } });

describe.each(GUARD_CASES)('refusing $refusal', (guard) => {
  async function refused(path: string, headers: Record<string, string>, body: string): Promise<RawResponse & { json: Record<string, unknown> }> {
    server = await startServer(assistant(createGate().tool), guard.options);
    if (guard.spendToken) await raw(`${server.url}/.well-known/agent-card.json`);
    const response = await raw(`${server.url}${path}`, { method: 'POST', headers: { ...headers, ...guard.headers }, body: guard.body ?? body });
    return { ...response, json: JSON.parse(response.body) };
  }

  it('answers on the JSON-RPC endpoint with a JSON-RPC error of id null, keeping the HTTP status', async () => {
    const response = await refused('/jsonrpc', jsonHeaders, getTaskBody);

    expect(response.status).toBe(guard.status);
    expect(response.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: guard.rpcCode, message: expect.any(String) } });
    if (guard.keeps) expect(response.headers[guard.keeps]).toBeDefined();
  });

  it('answers a 1.0 client on the HTTP+JSON endpoint with a google.rpc.Status body, keeping the HTTP status', async () => {
    const response = await refused('/rest/message:send', jsonHeaders, sendBody);

    expect(response.status).toBe(guard.status);
    expect(response.json).toMatchObject({ error: { code: guard.status, status: guard.restStatus, message: expect.any(String), details: expect.any(Array) } });
    if (guard.keeps) expect(response.headers[guard.keeps]).toBeDefined();
  });

  it('answers a 0.3 client on the HTTP+JSON endpoint with a 0.3 error body, keeping the HTTP status', async () => {
    const response = await refused('/rest/v1/message:send', { 'content-type': 'application/json' }, sendBody);

    expect(response.status).toBe(guard.status);
    expect(response.json).toEqual({ code: guard.rpcCode, message: expect.any(String) });
  });
});

describe('refusals as clients see them', () => {
  it('answers on the card endpoint in plain JSON', async () => {
    server = await startServer(assistant(createGate().tool));

    const response = await raw(`${server.url}/.well-known/agent-card.json`, { headers: { host: 'attacker.example:80' } });

    expect(JSON.parse(response.body)).toEqual({ error: expect.stringMatching(/loopback/) });
  });

  it.each(BINDINGS)('lets the SDK client over %s show what to do', async (binding) => {
    server = await startServer(assistant(createGate().tool), { env: { A2A_SERVER_SECRET: SECRET } });
    const client = await clientFor(server.url, binding);

    await expect(client.getTask({ tenant: '', id: 'x' })).rejects.toThrow('Authentication required: send Authorization: Bearer <A2A_SERVER_SECRET>.');
  });
});
