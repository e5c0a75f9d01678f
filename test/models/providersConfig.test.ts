import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ProvidersConfig } from '../../src/config/projectConfig.js';
import { agent, collect, compile, ofType, turnEnd } from '../runtime/fixtures.js';

// openai-compatible servers configured by OPENAI_COMPATIBLE_<NAME>_* variables and the project
// config file's `providers:`, checked at a real server that records what it was sent.

const COMPLETION = {
  id: 'x',
  object: 'chat.completion',
  created: 0,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
};

interface Received {
  url: string;
  headers: IncomingHttpHeaders;
}

let server: Server;
let baseUrl: string;
let received: Received[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    received.push({ url: request.url ?? '', headers: request.headers });
    request.resume().on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(COMPLETION));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  received = [];
});

async function turnOn(env: NodeJS.ProcessEnv, providers?: ProvidersConfig): Promise<Awaited<ReturnType<typeof collect>>> {
  const compiled = compile(agent('Solo', { model: 'openai-compatible:router/m' }), { env, providers });
  return collect(compiled, { input: 'hello', stream: false });
}

function onlyRequest(): Received {
  expect(received).toHaveLength(1);
  return received[0] as Received;
}

describe('openai-compatible servers', () => {
  it('send the headers of OPENAI_COMPATIBLE_<NAME>_HEADERS', async () => {
    const headers = JSON.stringify({ 'HTTP-Referer': 'https://example.com', 'X-Title': 'Syndicate' });

    const events = await turnOn({ OPENAI_COMPATIBLE_ROUTER_BASE_URL: `${baseUrl}/v1`, OPENAI_COMPATIBLE_ROUTER_HEADERS: headers });

    expect(turnEnd(events)).toMatchObject({ status: 'completed', output: 'hi' });
    expect(onlyRequest().headers).toMatchObject({ 'http-referer': 'https://example.com', 'x-title': 'Syndicate' });
  });

  it('take the base URL, the key from the variable api_key_env names, and the headers from the config file', async () => {
    const providers = { router: { base_url: `${baseUrl}/file/v1`, api_key_env: 'ROUTER_KEY', headers: { 'X-Title': 'From file' } } };

    const events = await turnOn({ ROUTER_KEY: 'file-key' }, providers);

    expect(turnEnd(events).status).toBe('completed');
    const request = onlyRequest();
    expect(request.url).toBe('/file/v1/chat/completions');
    expect(request.headers).toMatchObject({ authorization: 'Bearer file-key', 'x-title': 'From file' });
  });

  it('let the environment win over the config file, header by header', async () => {
    const providers = { router: { base_url: 'http://127.0.0.1:1/unused', api_key_env: 'ROUTER_KEY', headers: { 'X-Title': 'From file', 'X-Kept': 'kept' } } };
    const env = {
      ROUTER_KEY: 'file-key',
      OPENAI_COMPATIBLE_ROUTER_BASE_URL: `${baseUrl}/env/v1`,
      OPENAI_COMPATIBLE_ROUTER_API_KEY: 'env-key',
      OPENAI_COMPATIBLE_ROUTER_HEADERS: '{"X-Title":"From env"}',
    };

    await turnOn(env, providers);

    const request = onlyRequest();
    expect(request.url).toBe('/env/v1/chat/completions');
    expect(request.headers).toMatchObject({ authorization: 'Bearer env-key', 'x-title': 'From env', 'x-kept': 'kept' });
  });

  it('fail the first call with a ModelConfigError naming the variable when HEADERS is not a JSON object', async () => {
    const events = await turnOn({ OPENAI_COMPATIBLE_ROUTER_BASE_URL: `${baseUrl}/v1`, OPENAI_COMPATIBLE_ROUTER_HEADERS: '{X-Title: Syndicate}' });

    expect(turnEnd(events).status).toBe('failed');
    const error = ofType(events, 'error')[0];
    expect(error?.code).toBe('model_config');
    expect(error?.message).toContain('OPENAI_COMPATIBLE_ROUTER_HEADERS is not a JSON object of string values');
    expect(error?.message).toContain('Write it like {"HTTP-Referer":"https://example.com","X-Title":"Syndicate"}');
    expect(received).toHaveLength(0);
  });

  it('fail the first call naming the variable when api_key_env names an unset one', async () => {
    const events = await turnOn({}, { router: { base_url: `${baseUrl}/v1`, api_key_env: 'ROUTER_KEY' } });

    expect(ofType(events, 'error')[0]).toMatchObject({ code: 'model_config' });
    expect(ofType(events, 'error')[0]?.message).toContain('ROUTER_KEY, named by providers.router.api_key_env in the project config, is not set');
    expect(received).toHaveLength(0);
  });
});
