import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { mcpSessionIdFor } from '../../src/mcp/askTool.js';
import type { McpHttpServer } from '../../src/mcp/http/serveHttp.js';
import { clerk, connectHttp, keyless, serveSyndicates, served, tempStore, textOf, type Era, type TestStore } from './fixtures.js';

// The SDK's own client drives ask_<syndicate> over Streamable HTTP, in both protocol eras: the
// 2025-11-25 handshake (served with MCP sessions) and the negotiated 2026-07-28 revision.

describe.each<Era>(['legacy', 'auto'])('ask_<syndicate> over Streamable HTTP (client era: %s)', (era) => {
  let db: TestStore;
  let server: McpHttpServer | undefined;
  let client: Client | undefined;

  beforeEach(async () => {
    db = await tempStore();
  });

  afterEach(async () => {
    await client?.close();
    await server?.close();
    await db.dispose();
    client = undefined;
    server = undefined;
  });

  async function start(...syndicates: Parameters<typeof served>[0][]): Promise<Client> {
    server = await serveSyndicates(syndicates.map((s) => served(s, db.store)));
    client = await connectHttp(server.url, era);
    return client;
  }

  it('lists one ask tool per syndicate whose input schema comes from the Tool contract', async () => {
    const mcp = await start(clerk(), clerk({ name: 'Second Clerk' }));

    const { tools } = await mcp.listTools();

    expect(tools.map((tool) => tool.name)).toEqual(['ask_clerk', 'ask_second_clerk']);
    expect(tools[0]!.inputSchema).toMatchObject({ type: 'object', required: ['message'], properties: { message: { type: 'string' }, session_id: { type: 'string' } } });
  });

  it('runs a real turn and returns its answer with the session id', async () => {
    const mcp = await start(clerk());

    const result = await mcp.callTool({ name: 'ask_clerk', arguments: { message: 'Please sum two and three' } });

    expect(result.isError).toBeFalsy();
    const answer = result.structuredContent as { answer: string; session_id: string };
    expect(answer.answer).toBe('The sum is 5.');
    expect(JSON.parse(textOf(result))).toEqual(answer);
    const stored = await db.store.getSession(mcpSessionIdFor('http', answer.session_id));
    expect(stored?.syndicate).toBe('Clerk');
  });

  it('reports the turn\'s tool calls as progress notifications while it runs', async () => {
    const mcp = await start(clerk());
    const progress: string[] = [];

    await mcp.callTool({ name: 'ask_clerk', arguments: { message: 'Please sum two and three' } }, { onprogress: (p) => void progress.push(p.message ?? '') });

    expect(progress).toEqual(['Clerk calls calculator', 'calculator returned']);
  });

  it('continues a conversation when the returned session id is passed back', async () => {
    const mcp = await start(clerk());
    const first = await mcp.callTool({ name: 'ask_clerk', arguments: { message: 'Please sum two and three' } });
    const { session_id } = first.structuredContent as { session_id: string };

    const second = await mcp.callTool({ name: 'ask_clerk', arguments: { message: 'And once more, sum them', session_id } });

    expect((second.structuredContent as { session_id: string }).session_id).toBe(session_id);
    const inputs = (await db.store.readEvents(mcpSessionIdFor('http', session_id))).flatMap(({ event }) => (event.type === 'turn-start' ? [event.input] : []));
    expect(inputs).toEqual(['Please sum two and three', 'And once more, sum them']);
  });

  it('aborts the running turn when the client cancels the call', async () => {
    let aborted!: () => void;
    const toolAborted = new Promise<void>((resolve) => (aborted = resolve));
    const mcp = await start(clerk({ onHoldAborted: () => aborted() }));
    const controller = new AbortController();

    const call = mcp.callTool(
      { name: 'ask_clerk', arguments: { message: 'hold on', session_id: 'cancel-me' } },
      { signal: controller.signal, onprogress: (p) => (p.message === 'Clerk calls hold' ? controller.abort() : undefined) },
    );

    await expect(call).rejects.toThrow(/abort/i);
    await toolAborted;
    await expect.poll(async () => (await db.store.readEvents(mcpSessionIdFor('http', 'cancel-me'))).map(({ event }) => event).find((event) => event.type === 'turn-end')).toMatchObject({ status: 'cancelled' });
  });
});

describe('ask_<syndicate> errors come back as MCP tool errors', () => {
  let db: TestStore;
  let server: McpHttpServer;
  let client: Client;

  beforeEach(async () => {
    db = await tempStore();
    server = await serveSyndicates([served(clerk(), db.store), served(clerk({ name: 'Forgetful', memorySystem: 'internal-only' }), db.store), served(keyless(), db.store)]);
    client = await connectHttp(server.url);
  });

  afterEach(async () => {
    await client.close();
    await server.close();
    await db.dispose();
  });

  it('refuses arguments that do not match the schema, naming the field', async () => {
    const result = await client.callTool({ name: 'ask_clerk', arguments: { message: '' } });

    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/message/);
  });

  it('refuses a session that belongs to another syndicate', async () => {
    await db.store.openSession(mcpSessionIdFor('http', 'someone-elses'), 'Council');

    const result = await client.callTool({ name: 'ask_clerk', arguments: { message: 'sum', session_id: 'someone-elses' } });

    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("belongs to the syndicate 'Council'");
  });

  it('refuses a session id for a syndicate that keeps no sessions', async () => {
    const result = await client.callTool({ name: 'ask_forgetful', arguments: { message: 'sum', session_id: 'abc' } });

    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('internal-only');
  });

  it('answers without a session id for a syndicate that keeps no sessions', async () => {
    const result = await client.callTool({ name: 'ask_forgetful', arguments: { message: 'Please sum two and three' } });

    expect(result.structuredContent).toEqual({ answer: 'The sum is 5.' });
  });

  it('reports a failed turn as a tool error with the reason', async () => {
    const result = await client.callTool({ name: 'ask_keyless', arguments: { message: 'Hello' } });

    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Agent '.*OPENAI_API_KEY/);
  });
});
