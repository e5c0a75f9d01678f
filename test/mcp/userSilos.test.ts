import { StreamableHTTPClientTransport, type Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { siloOf } from '../../src/a2a/caller.js';
import { serveMcpHttp, type McpHttpServer } from '../../src/mcp/http/serveHttp.js';
import { parseUserTokens } from '../../src/mcp/http/userTokens.js';
import { syndicateServerFactory } from '../../src/mcp/syndicateServer.js';
import { sharedMemoryTools } from '../../src/memory/sharedMemoryTools.js';
import { createPlatform, type Platform } from '../../src/platform/createPlatform.js';
import type { Store } from '../../src/store/store.js';
import { fakeEmbedder } from '../memory/fakeEmbedder.js';
import { agent, compile } from '../runtime/fixtures.js';
import { tempDbPath } from '../a2a/fixtures.js';
import { connectHttp, textOf, type Era } from './fixtures.js';

// Over MCP HTTP the memory tools use the silo of the authenticated caller, as on the A2A face:
// a user's own token is that user's silo; the shared token is a client that may name its user in
// X-Syndicate-User. Two users never see each other's facts, in either protocol era.

const ALICE_TOKEN = 'alice-token-0123456789abcdef';
const BOB_TOKEN = 'bob-token-0123456789abcdef';
const SHARED_TOKEN = 'shared-client-token-0123456789';
const USER_TOKENS = `alice=${ALICE_TOKEN}, bob=${BOB_TOKEN}`;

const concierge = compile(agent('Concierge'), { embedder: fakeEmbedder() }, { name: 'Concierge', memorySystem: 'long-term' });

let platform: Platform;
let store: Store;
let server: McpHttpServer;

beforeAll(async () => {
  platform = await createPlatform({ store: tempDbPath(), env: {} });
  store = await platform.store();
  const factory = syndicateServerFactory({
    version: '0',
    caller: 'http',
    syndicates: [{ syndicate: concierge, store }],
    toolsFor: async (syndicate, caller) => sharedMemoryTools((await platform.memory(syndicate, siloOf(caller, syndicate.name)))!),
  });
  server = await serveMcpHttp(factory, { host: '127.0.0.1', port: 0, token: SHARED_TOKEN, userTokens: parseUserTokens(USER_TOKENS, 'SYNDICATE_MCP_USER_TOKENS') });
});

afterAll(async () => {
  await server.close();
  await platform.close();
});

beforeEach(async () => {
  for (const { silo } of await store.facts.listSilos()) for (const fact of await store.facts.listFacts(silo)) await store.facts.deleteFact(silo, fact.id);
});

function as(token: string, era: Era, headers: Record<string, string> = {}): Promise<Client> {
  return connectHttp(server.url, era, { authorization: `Bearer ${token}`, ...headers });
}

async function textsIn(silo: string): Promise<string[]> {
  return (await store.facts.listFacts(silo)).map((fact) => fact.text);
}

async function recalled(client: Client, query: string): Promise<string[]> {
  const result = await client.callTool({ name: 'recall', arguments: { query } });
  return (result.structuredContent as { facts: Array<{ text: string }> }).facts.map((fact) => fact.text);
}

describe.each<Era>(['auto', 'legacy'])('memory over MCP HTTP (%s era)', (era) => {
  it("keeps two users' facts apart: each token recalls its own user's facts only", async () => {
    const alice = await as(ALICE_TOKEN, era);
    const bob = await as(BOB_TOKEN, era);

    await alice.callTool({ name: 'remember', arguments: { text: 'The user lives in Lisbon.', keys: ['home'] } });
    await bob.callTool({ name: 'remember', arguments: { text: 'The user lives in Oslo.', keys: ['home'] } });
    const [aliceRecalls, bobRecalls] = [await recalled(alice, 'Where does the user live?'), await recalled(bob, 'Where does the user live?')];
    await alice.close();
    await bob.close();

    expect(aliceRecalls).toEqual(['The user lives in Lisbon.']);
    expect(bobRecalls).toEqual(['The user lives in Oslo.']);
    expect([await textsIn('concierge--alice'), await textsIn('concierge--bob')]).toEqual([['The user lives in Lisbon.'], ['The user lives in Oslo.']]);
  });

  it('uses the silo of the user the shared token names in X-Syndicate-User', async () => {
    const carol = await as(SHARED_TOKEN, era, { 'x-syndicate-user': 'carol' });

    await carol.callTool({ name: 'remember', arguments: { text: 'The user plays the cello.', keys: ['music'] } });
    await carol.close();

    expect(await textsIn('concierge--carol')).toEqual(['The user plays the cello.']);
  });

  it("refuses a user's token that names another user in X-Syndicate-User", async () => {
    await expect(as(BOB_TOKEN, era, { 'x-syndicate-user': 'alice' })).rejects.toThrow(/Forbidden|HTTP 403/);
  });
});

describe("a user's token", () => {
  it('that names another user in X-Syndicate-User is refused with 403, saying whose token it is', async () => {
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${BOB_TOKEN}`, 'x-syndicate-user': 'alice', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } }),
    });

    expect(response.status).toBe(403);
    expect(await response.text()).toContain("this token is bob's, and x-syndicate-user names 'alice'");
  });
});

describe('an MCP session over HTTP (2025 era)', () => {
  it('is refused to a token other than the one that opened it', async () => {
    const alice = await as(ALICE_TOKEN, 'legacy');
    const sessionId = (alice.transport as StreamableHTTPClientTransport).sessionId!;

    const response = await fetch(server.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${BOB_TOKEN}`, 'mcp-session-id': sessionId, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'recall', arguments: { query: 'Where does the user live?' } } }),
    });
    await alice.close();

    expect(response.status).toBe(403);
    expect(await response.text()).toContain('opened by another caller');
  });
});

describe('SYNDICATE_MCP_USER_TOKENS', () => {
  it('reads user=token pairs', () => {
    expect([...parseUserTokens(USER_TOKENS, 'V')]).toEqual([
      [ALICE_TOKEN, 'alice'],
      [BOB_TOKEN, 'bob'],
    ]);
  });

  it.each([
    ['an entry without a user', `=${ALICE_TOKEN}`, /is not user=token/],
    ['a token too short to resist guessing', 'alice=short', /alice's token is too short/],
    ['a reserved user id', `local=${ALICE_TOKEN}`, /the user 'local' is not a valid user id/],
    ['one user listed twice', `alice=${ALICE_TOKEN},alice=${BOB_TOKEN}`, /listed twice/],
    ['two users sharing a token', `alice=${ALICE_TOKEN},bob=${ALICE_TOKEN}`, /share a token/],
  ])('refuses %s', (_case, value, message) => {
    expect(() => parseUserTokens(value, 'V')).toThrow(message);
  });

  it('refuses a wrong token with 401', async () => {
    await expect(as('not-a-known-token-at-all', 'auto')).rejects.toThrow(/401|Unauthorized/);
  });
});

describe('recall over MCP HTTP', () => {
  it('answers as text too, for clients that read only content', async () => {
    const alice = await as(ALICE_TOKEN, 'auto');
    await alice.callTool({ name: 'remember', arguments: { text: 'The user lives in Lisbon.', keys: ['home'] } });

    const result = await alice.callTool({ name: 'recall', arguments: { query: 'Where does the user live?' } });
    await alice.close();

    expect(textOf(result)).toContain('[current] The user lives in Lisbon.');
  });
});
