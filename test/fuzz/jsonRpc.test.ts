import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agent, compile } from '../runtime/fixtures.js';
import { startServer, type TestServer } from '../a2a/fixtures.js';
import type { McpHttpServer } from '../../src/mcp/http/serveHttp.js';
import { clerk, serveSyndicates, served } from '../mcp/fixtures.js';
import { between, fuzzSeeds, mutate, pick, seeded, type Random } from './fuzzing.js';

// Mutated JSON-RPC bodies against a real A2A server and a real MCP HTTP server on loopback:
// every answer is below 500, and the A2A one is a JSON-RPC response (a result, or an error with
// an integer code and a message), whatever the body was. Turns run on the scripted model.

const CASES_PER_SEED = 400;
const MCP_CASES_PER_SEED = 250;

const BASES: readonly unknown[] = [
  { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'Hello' }] } } },
  { jsonrpc: '2.0', id: 'g', method: 'GetTask', params: { id: 'no-such-task', historyLength: 2 } },
  { jsonrpc: '2.0', id: 3, method: 'ListTasks', params: { pageSize: 5 } },
  { jsonrpc: '2.0', id: 4, method: 'CancelTask', params: { id: 'no-such-task' } },
  { jsonrpc: '2.0', id: 5, method: 'GetExtendedAgentCard', params: {} },
  { jsonrpc: '2.0', id: 6, method: 'CreateTaskPushNotificationConfig', params: { taskId: 'no-such-task', url: 'http://127.0.0.1:1/hook' } },
];

const METHODS = ['SendMessage', 'GetTask', 'ListTasks', 'CancelTask', 'GetExtendedAgentCard', 'message/send', 'tasks/get', 'tasks/cancel', 'NoSuchMethod', '', '__proto__', 'constructor'];

function randomValue(random: Random, depth = 0): unknown {
  switch (between(random, 0, depth > 3 ? 5 : 8)) {
    case 0: return null;
    case 1: return pick(random, [0, -1, 1.5, 2 ** 53 + 1, 1e308, -0]);
    case 2: return pick(random, ['', 'x', 'ROLE_USER', 'ROLE_AGENT', '\u0000', '💥'.repeat(between(random, 1, 50)), 'a'.repeat(between(random, 100, 5_000))]);
    case 3: return random() < 0.5;
    case 4: return pick(random, METHODS);
    case 5: return {};
    case 6: return Array.from({ length: between(random, 0, 4) }, () => randomValue(random, depth + 1));
    case 7: return Object.fromEntries(Array.from({ length: between(random, 0, 4) }, () => [pick(random, ['id', 'text', 'parts', 'message', 'role', 'kind', '__proto__', 'taskId', 'contextId']), randomValue(random, depth + 1)]));
    default: {
      let nested: unknown = 1;
      for (let level = between(random, 10, 500); level > 0; level--) nested = random() < 0.5 ? [nested] : { a: nested };
      return nested;
    }
  }
}

/** Replaces, removes or adds one node somewhere in `value`. */
function mutateValue(random: Random, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || random() < 0.25) return randomValue(random);
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [...(value as unknown[])] : { ...(value as Record<string, unknown>) };
  const keys = Object.keys(copy);
  const key = keys.length === 0 || random() < 0.2 ? pick(random, ['id', 'method', 'params', 'jsonrpc', 'extra', 'parts', 'message', 'text']) : pick(random, keys);
  const target = copy as Record<string, unknown>;
  if (random() < 0.15) delete target[key];
  else target[key] = mutateValue(random, target[key]);
  return copy;
}

const MCP_BASES: readonly unknown[] = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '0' } } },
  { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
  { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'ask_clerk', arguments: { message: 'Please sum two and three', session_id: 'fuzz' } } },
  { jsonrpc: '2.0', id: 4, method: 'ping' },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
];

function fuzzBody(random: Random, bases: readonly unknown[] = BASES): string {
  const base = pick(random, bases);
  const kind = between(random, 0, 9);
  if (kind === 0) return mutate(random, JSON.stringify(base));
  if (kind === 1) return JSON.stringify([mutateValue(random, base), base]);
  if (kind === 2) return JSON.stringify(randomValue(random));
  return JSON.stringify(mutateValue(random, mutateValue(random, base)));
}

interface Answer {
  status: number;
  text: string;
}

let server: TestServer;
let mcp: McpHttpServer;
const mcpRefusals: string[] = [];

beforeAll(async () => {
  server = await startServer(compile(agent('Assistant')), { rateLimit: { perSecond: 1_000_000, burst: 1_000_000 } });
  // Each refused body is told to onerror; by default that is a stderr line per request.
  mcp = await serveSyndicates([served(clerk(), server.store)], { onerror: (error) => void mcpRefusals.push(error.message) });
});

afterAll(async () => {
  await mcp.close();
  await server.stop();
});

async function post(body: string): Promise<Answer> {
  const response = await fetch(`${server.url}/jsonrpc`, { method: 'POST', headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' }, body });
  return { status: response.status, text: await response.text() };
}

/** What is wrong with the answer, or undefined when it is a proper JSON-RPC response. */
function improperAnswer({ status, text }: Answer): string | undefined {
  if (status >= 500) return `status ${status}`;
  let reply: unknown;
  try {
    reply = JSON.parse(text);
  } catch {
    return `status ${status} with a body that is not JSON`;
  }
  const object = reply as { jsonrpc?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } };
  if (typeof reply !== 'object' || reply === null || Array.isArray(reply) || object.jsonrpc !== '2.0') return 'not a JSON-RPC response object';
  if ((object.result === undefined) === (object.error === undefined)) return 'neither (or both) a result and an error';
  if (object.error !== undefined && !(Number.isInteger(object.error.code) && typeof object.error.message === 'string')) return 'an error without an integer code and a message';
  if (status !== 200 && object.error === undefined) return `status ${status} without an error`;
  return undefined;
}

describe.each(fuzzSeeds())('the A2A JSON-RPC endpoint on mutated requests (seed %i)', (seed) => {
  it(`answers each of ${CASES_PER_SEED} bodies with a JSON-RPC response below 500`, async () => {
    const random = seeded(seed);
    for (let index = 0; index < CASES_PER_SEED; index++) {
      const body = fuzzBody(random);

      const answer = await post(body);

      expect(improperAnswer(answer), `seed ${seed}, case ${index}; the body was:\n${body.slice(0, 2_000)}\nthe answer (${answer.status}):\n${answer.text.slice(0, 2_000)}`).toBeUndefined();
    }
  }, 120_000);
});

describe.each(fuzzSeeds())('the MCP HTTP endpoint on mutated requests (seed %i)', (seed) => {
  it(`answers each of ${MCP_CASES_PER_SEED} bodies below 500`, async () => {
    const random = seeded(seed);
    for (let index = 0; index < MCP_CASES_PER_SEED; index++) {
      const body = fuzzBody(random, MCP_BASES);

      const response = await fetch(mcp.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body });
      const text = await response.text();

      expect(response.status, `seed ${seed}, case ${index}; the body was:\n${body.slice(0, 2_000)}\nthe answer:\n${text.slice(0, 2_000)}`).toBeLessThan(500);
    }
  }, 120_000);
});
