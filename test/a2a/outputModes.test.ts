import { ContentTypeNotSupportedError } from '@a2a-js/sdk/errors';
import {
  ClientFactory,
  ContentTypeNotSupportedError as LegacyContentTypeNotSupportedError,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory as LegacyJsonRpcTransportFactory,
  RestTransportFactory as LegacyRestTransportFactory,
} from 'a2a-sdk-v03/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { modeAccepts, unacceptedOutput } from '../../src/a2a/outputModes.js';
import { BINDINGS, clientFor, collectStream, createGate, sendRequest, startServer, type TestServer } from './fixtures.js';
import { assistant } from './syndicates.js';

// configuration.acceptedOutputModes: a caller that can read none of the modes the agent answers
// in (its card's defaultOutputModes, text/plain here) is refused with ContentTypeNotSupported
// before a turn runs.

let server: TestServer;

beforeEach(async () => {
  server = await startServer(assistant(createGate().tool));
});

afterEach(async () => server.stop());

describe('which accepted mode covers a produced one', () => {
  it('matches media types exactly, ignoring case and parameters', () => {
    expect(modeAccepts('Text/Plain; charset=utf-8', 'text/plain')).toBe(true);
    expect(modeAccepts('text/html', 'text/plain')).toBe(false);
  });

  it('matches the wildcards */* and type/*, and a bare type name', () => {
    expect(modeAccepts('*/*', 'application/zip')).toBe(true);
    expect(modeAccepts('text/*', 'text/plain')).toBe(true);
    expect(modeAccepts('text', 'text/plain')).toBe(true);
    expect(modeAccepts('image/*', 'text/plain')).toBe(false);
  });

  it('refuses only a list that is not empty and covers no produced mode', () => {
    expect(unacceptedOutput([], ['text/plain'])).toBeUndefined();
    expect(unacceptedOutput(['image/png', 'text/plain'], ['text/plain'])).toBeUndefined();
    expect(unacceptedOutput(['image/png'], ['text/plain'])).toBeInstanceOf(ContentTypeNotSupportedError);
  });
});

describe.each(BINDINGS)('over %s', (binding) => {
  it('refuses a message whose caller accepts none of the output modes with ContentTypeNotSupported', async () => {
    const client = await clientFor(server.url, binding);

    await expect(client.sendMessage(sendRequest('hello', {}, { acceptedOutputModes: ['image/png'] }))).rejects.toBeInstanceOf(ContentTypeNotSupportedError);
  });

  it('refuses a streaming message whose caller accepts none of the output modes with ContentTypeNotSupported', async () => {
    const client = await clientFor(server.url, binding);

    await expect(collectStream(client.sendMessageStream(sendRequest('hello', {}, { acceptedOutputModes: ['image/png'] })))).rejects.toBeInstanceOf(ContentTypeNotSupportedError);
  });

  it('serves a caller that accepts one of the output modes', async () => {
    const client = await clientFor(server.url, binding);

    const task = (await client.sendMessage(sendRequest('hello', {}, { acceptedOutputModes: ['application/json', 'text/*'] }))) as { status?: { state: number } };

    expect(task.status?.state).toBe(3);
  });
});

describe('on the wire', () => {
  const headers = { 'content-type': 'application/json', 'A2A-Version': '1.0' };
  const message = { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hello' }] };

  it.each(['SendMessage', 'SendStreamingMessage'])('answers %s with -32005 over JSON-RPC', async (method) => {
    const body = { jsonrpc: '2.0', id: 1, method, params: { message, configuration: { acceptedOutputModes: ['image/png'] } } };

    const reply = await (await fetch(`${server.url}/jsonrpc`, { method: 'POST', headers, body: JSON.stringify(body) })).json();

    expect(reply).toMatchObject({ id: 1, error: { code: -32005 } });
  });

  it('answers with 400 and the CONTENT_TYPE_NOT_SUPPORTED reason over HTTP+JSON', async () => {
    const body = { message, configuration: { acceptedOutputModes: ['image/png'] } };

    const response = await fetch(`${server.url}/rest/message:send`, { method: 'POST', headers, body: JSON.stringify(body) });

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { details: [{ reason: 'CONTENT_TYPE_NOT_SUPPORTED' }] } });
  });
});

describe.each(['JSONRPC', 'HTTP+JSON'] as const)('a 0.3 client over %s', (binding) => {
  it('is refused with ContentTypeNotSupported too when it accepts none of the output modes', async () => {
    const factory = new ClientFactory({
      transports: [new LegacyJsonRpcTransportFactory(), new LegacyRestTransportFactory()],
      preferredTransports: [binding],
      cardResolver: new DefaultAgentCardResolver(),
    });
    const client = await factory.createFromUrl(`${server.url}/.well-known/agent-card.json`, '');

    const send = client.sendMessage({
      message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'hello' }] },
      configuration: { acceptedOutputModes: ['image/png'] },
    });

    await expect(send).rejects.toBeInstanceOf(LegacyContentTypeNotSupportedError);
  });
});
