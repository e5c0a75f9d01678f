import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serveMcpHttp, type McpHttpServer } from '../../src/mcp/http/serveHttp.js';
import { syndicateServerFactory } from '../../src/mcp/syndicateServer.js';
import type { Memory } from '../../src/memory/openMemory.js';
import { sharedMemoryTools } from '../../src/memory/sharedMemoryTools.js';
import { createPlatform, type Platform } from '../../src/platform/createPlatform.js';
import type { Store } from '../../src/store/store.js';
import { siloFor } from '../../src/core/silo.js';
import { fakeEmbedder } from '../memory/fakeEmbedder.js';
import { agent, compile } from '../runtime/fixtures.js';
import { tempDbPath } from '../a2a/fixtures.js';
import { connectHttp, textOf } from './fixtures.js';

// remember and recall as an MCP client sees them: recall's structured facts against its declared
// outputSchema (the SDK's client checks each result against it), limit, as_of, said_at, and
// remember refusing bad input before anything is stored.

const concierge = compile(agent('Concierge'), { embedder: fakeEmbedder() }, { name: 'Concierge', memorySystem: 'long-term' });
const SILO = siloFor('Concierge');

interface RecalledOutput {
  as_of: string | null;
  facts: Array<{ id: string; text: string; tag: string; date: string | null; said_at: string; status: string; superseded_by: string | null; score: number }>;
}

let platform: Platform;
let store: Store;
let memory: Memory;
let server: McpHttpServer;
let client: Client;

beforeAll(async () => {
  platform = await createPlatform({ store: tempDbPath(), env: {} });
  store = await platform.store();
  memory = (await platform.memory(concierge))!;
  const factory = syndicateServerFactory({ version: '0', caller: 'http', syndicates: [{ syndicate: concierge, store }], toolsFor: () => sharedMemoryTools(memory) });
  server = await serveMcpHttp(factory, { host: '127.0.0.1', port: 0 });
  client = await connectHttp(server.url, 'auto');
});

afterAll(async () => {
  await client.close();
  await server.close();
  await platform.close();
});

beforeEach(async () => {
  for (const fact of await store.facts.listFacts(SILO)) await store.facts.deleteFact(SILO, fact.id);
});

async function remember(args: Record<string, unknown>): Promise<{ id: string }> {
  const result = await client.callTool({ name: 'remember', arguments: args });
  if (result.isError) throw new Error(textOf(result));
  return result.structuredContent as { id: string };
}

async function recall(args: Record<string, unknown>): Promise<{ text: string; output: RecalledOutput }> {
  const result = await client.callTool({ name: 'recall', arguments: args });
  if (result.isError) throw new Error(textOf(result));
  return { text: textOf(result), output: result.structuredContent as unknown as RecalledOutput };
}

describe('recall over MCP', () => {
  it('declares an outputSchema with each fact’s id, text, tag, date, status, superseded_by and score', async () => {
    const { tools } = await client.listTools();
    const schema = tools.find((tool) => tool.name === 'recall')!.outputSchema as { properties: { facts: { items: { properties: Record<string, unknown> } } } };

    expect(Object.keys(schema.properties.facts.items.properties)).toEqual(['id', 'text', 'tag', 'date', 'said_at', 'status', 'superseded_by', 'score']);
  });

  it('returns the facts as structuredContent and the readable block as text', async () => {
    const { id } = await remember({ text: 'The user prefers aisle seats.', tag: 'PREFERENCE', keys: ['seat'], date: '2025-04-02', said_at: '2025-04-01T08:30:00Z' });

    const { text, output } = await recall({ query: 'Which seat does the user like?' });

    expect(output.as_of).toBeNull();
    expect(output.facts).toEqual([
      { id, text: 'The user prefers aisle seats.', tag: 'PREFERENCE', date: '2025-04-02', said_at: '2025-04-01T08:30:00.000Z', status: 'active', superseded_by: null, score: expect.any(Number) },
    ]);
    expect(text).toContain('[current] The user prefers aisle seats.');
  });

  it('marks a corrected fact superseded by the correction that retired it', async () => {
    const { id: paris } = await remember({ text: 'The user lives in Paris.', keys: ['home'], said_at: '2025-01-10' });
    const { id: berlin } = await remember({ text: 'Correction: the user now lives in Berlin.', tag: 'CORRECTION', keys: ['home'], said_at: '2025-03-01' });

    const { output } = await recall({ query: 'Where does the user live?' });

    expect(output.facts.find((fact) => fact.id === paris)).toMatchObject({ status: 'superseded', superseded_by: berlin });
    expect(output.facts.find((fact) => fact.id === berlin)).toMatchObject({ status: 'active', superseded_by: null });
  });

  it('returns at most limit facts', async () => {
    for (const city of ['Paris', 'Lyon', 'Nice']) await remember({ text: `The user visited ${city}.`, keys: [city.toLowerCase()] });

    const { output } = await recall({ query: 'Which cities did the user visit?', limit: 2 });

    expect(output.facts).toHaveLength(2);
  });
});

describe('recall as_of: memory as it stood then', () => {
  let paris: string;
  let berlin: string;

  beforeEach(async () => {
    ({ id: paris } = await remember({ text: 'The user lives in Paris.', keys: ['home'], said_at: '2025-01-10' }));
    ({ id: berlin } = await remember({ text: 'Correction: the user now lives in Berlin.', tag: 'CORRECTION', keys: ['home'], said_at: '2025-03-01T12:00:00+01:00' }));
  });

  it('shows a fact corrected later as current then, and leaves out the correction not yet said', async () => {
    const { text, output } = await recall({ query: 'Where does the user live?', as_of: '2025-02-01' });

    expect(output.as_of).toBe('2025-02-01T23:59:59.999Z');
    expect(output.facts.map((fact) => [fact.id, fact.status, fact.superseded_by])).toEqual([[paris, 'active', null]]);
    expect(text).toContain('[current] The user lives in Paris.');
    expect(text).not.toContain('Berlin');
  });

  it('shows the fact superseded once its correction was said', async () => {
    const { output } = await recall({ query: 'Where does the user live?', as_of: '2025-03-01T11:00:00Z' });

    expect(output.facts.find((fact) => fact.id === paris)).toMatchObject({ status: 'superseded', superseded_by: berlin });
  });

  it('includes everything said during the day a date names', async () => {
    const { output } = await recall({ query: 'Where does the user live?', as_of: '2025-03-01' });

    expect(output.facts.map((fact) => fact.id).sort()).toEqual([paris, berlin].sort());
  });

  it('recalls nothing before the first fact was said', async () => {
    const { text, output } = await recall({ query: 'Where does the user live?', as_of: '2025-01-09' });

    expect(output.facts).toEqual([]);
    expect(text).toContain('No facts in long-term memory match this request.');
  });

  it('refuses a query over 2,000 characters, naming it', async () => {
    const result = await client.callTool({ name: 'recall', arguments: { query: 'where '.repeat(334) } });

    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('query');
  });

  it('refuses an as_of that is not a date, naming it', async () => {
    const result = await client.callTool({ name: 'recall', arguments: { query: 'Where does the user live?', as_of: '2025-02-30' } });

    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('as_of');
    expect(textOf(result)).toContain('YYYY-MM-DD');
  });
});

describe('remember over MCP', () => {
  it('stores said_at as when the fact was said', async () => {
    const { id } = await remember({ text: 'The user adopted a cat.', keys: ['cat'], said_at: '2025-06-15T10:00:00+02:00' });

    const [stored] = await store.facts.listFacts(SILO);

    expect(stored).toMatchObject({ id, createdAt: Date.parse('2025-06-15T08:00:00Z') });
  });

  it.each([
    ['an empty text', { text: '   ', keys: ['seat'] }, 'text'],
    ['more than 5 keys', { text: 'The user likes tea.', keys: ['a', 'b', 'c', 'd', 'e', 'f'] }, 'keys'],
    ['an unknown tag', { text: 'The user likes tea.', keys: ['tea'], tag: 'RUMOUR' }, 'tag'],
    ['a date that is not a date', { text: 'The user likes tea.', keys: ['tea'], date: '2025-02-30' }, 'date'],
    ['a said_at that is not a date', { text: 'The user likes tea.', keys: ['tea'], said_at: 'last Tuesday' }, 'said_at'],
    ['a said_at in the future', { text: 'The user likes tea.', keys: ['tea'], said_at: '2999-01-01' }, 'said_at'],
    ['a text over 4,000 characters', { text: 'tea '.repeat(1_001), keys: ['tea'] }, 'text'],
    ['a key over 200 characters', { text: 'The user likes tea.', keys: ['t'.repeat(201)] }, 'keys.0'],
  ])('refuses %s, naming the field, and stores nothing', async (_case, args, field) => {
    const result = await client.callTool({ name: 'remember', arguments: args });

    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(`remember: ${field}: `);
    expect(await store.facts.listFacts(SILO)).toEqual([]);
  });
});
