import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CLI, cliEnv, runCli, startCli, tempDir } from '../cli/cli.js';
import { connectHttp, textOf, type Era } from './fixtures.js';

// The built CLI (dist/cli/syndicate.mjs; `npm run build` first) as an MCP server, driven by the SDK's client.

let home: { path: string; remove: () => void };

beforeEach(() => {
  home = tempDir('mcp');
});

afterEach(() => {
  home.remove();
});

function stdioClient(era: Era, args: readonly string[]): { client: Client; transport: StdioClientTransport } {
  const env = cliEnv(home.path) as Record<string, string>;
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...args], env, cwd: home.path, stderr: 'pipe' });
  return { client: new Client({ name: 'syndicate-test', version: '0.0.0' }, { versionNegotiation: { mode: era } }), transport };
}

describe.each<Era>(['legacy', 'auto'])('syndicate mcp over stdio (client era: %s)', (era) => {
  it('serves a bundled syndicate as ask_<name> that runs a turn and reports its delegations', async () => {
    const { client, transport } = stdioClient(era, ['council', '--offline']);
    await client.connect(transport);
    const progress: string[] = [];

    const result = await client.callTool({ name: 'ask_council', arguments: { message: 'Claim: tests make code better.' } }, { onprogress: (p) => void progress.push(p.message ?? '') });
    await client.close();

    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { answer: string }).answer).toContain('Consulted Advocate and Skeptic');
    expect(JSON.parse(textOf(result))).toHaveProperty('session_id');
    expect(progress).toEqual(['→ Moderator consults Advocate', '← Advocate answered', '→ Moderator consults Skeptic', '← Skeptic answered']);
  });
});

describe('syndicate mcp --http', () => {
  it('serves Streamable HTTP on loopback, prints the endpoint, and stops on SIGINT', async () => {
    const cli = startCli(['mcp', 'quartermaster', '--offline', '--http', '0'], { home: home.path });
    let stdout = '';
    cli.child.stdout!.on('data', (chunk: string) => (stdout += chunk));
    await cli.waitForStdout('Press Ctrl-C');
    const url = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(stdout)?.[0];

    const client = await connectHttp(url!, 'auto');
    const result = await client.callTool({ name: 'ask_quartermaster', arguments: { message: 'Plan the budget: 4800 for 12 people' } });
    await client.close();
    cli.child.kill('SIGINT');

    expect(result.structuredContent).toMatchObject({ answer: 'A 4,800 budget for 12 people allows 400 each.' });
    expect((await cli.result).code).toBe(0);
  });

  it('refuses a non-loopback bind without SYNDICATE_MCP_TOKEN, saying how to fix it', async () => {
    const result = await runCli(['mcp', 'council', '--offline', '--http', '0.0.0.0:0'], { home: home.path });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('without a bearer token: set SYNDICATE_MCP_TOKEN');
  });

  it('serves each user of SYNDICATE_MCP_USER_TOKENS from their own silo', async () => {
    const tokens = { alice: 'alice-token-0123456789abcdef', bob: 'bob-token-0123456789abcdef' };
    const cli = startCli(['mcp', 'concierge', '--offline', '--http', '0'], { home: home.path, env: { SYNDICATE_MCP_USER_TOKENS: `alice=${tokens.alice},bob=${tokens.bob}` } });
    let stdout = '';
    cli.child.stdout!.on('data', (chunk: string) => (stdout += chunk));
    await cli.waitForStdout('Press Ctrl-C');
    const url = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(stdout)![0];

    const alice = await connectHttp(url, 'auto', { authorization: `Bearer ${tokens.alice}` });
    await alice.callTool({ name: 'remember', arguments: { text: 'The user lives in Lisbon.', keys: ['home'] } });
    await alice.close();
    const bob = await connectHttp(url, 'auto', { authorization: `Bearer ${tokens.bob}` });
    const recalled = await bob.callTool({ name: 'recall', arguments: { query: 'Where does the user live?' } });
    await bob.close();
    cli.child.kill('SIGINT');
    await cli.result;

    expect(stdout).toContain('(bearer token required)');
    expect(recalled.structuredContent).toEqual({ as_of: null, facts: [] });
    const listed = await runCli(['memory', 'list', '--silo', 'concierge--alice', '--json'], { home: home.path });
    expect((JSON.parse(listed.stdout) as Array<{ text: string }>).map((fact) => fact.text)).toEqual(['The user lives in Lisbon.']);
  }, 60_000);

  it('refuses a malformed SYNDICATE_MCP_USER_TOKENS, naming the entry', async () => {
    const result = await runCli(['mcp', 'council', '--offline', '--http', '0'], { home: home.path, env: { SYNDICATE_MCP_USER_TOKENS: 'alice=short' } });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain("SYNDICATE_MCP_USER_TOKENS: alice's token is too short");
  });

  it("refuses a SYNDICATE_MCP_TOKEN that is also a user's token", async () => {
    const token = 'alice-token-0123456789abcdef';
    const result = await runCli(['mcp', 'council', '--offline', '--http', '0'], { home: home.path, env: { SYNDICATE_MCP_TOKEN: token, SYNDICATE_MCP_USER_TOKENS: `alice=${token}` } });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain("SYNDICATE_MCP_TOKEN is also alice's token in SYNDICATE_MCP_USER_TOKENS");
  });
});

describe('syndicate mcp serving a long-term syndicate', () => {
  it("serves the silo's memory as tools: a fact remembered over MCP is recalled over MCP and listed by the CLI", async () => {
    const { client, transport } = stdioClient('auto', ['concierge', '--offline']);
    await client.connect(transport);

    const names = (await client.listTools()).tools.map((tool) => tool.name);
    const remembered = await client.callTool({ name: 'remember', arguments: { text: 'The user prefers aisle seats.', tag: 'PREFERENCE', keys: ['seat'] } });
    const recalled = await client.callTool({ name: 'recall', arguments: { query: 'Which seat does the user like?' } });
    await client.close();

    expect(names).toEqual(['ask_concierge', 'remember', 'recall', 'memory_search', 'memory_read', 'memory_write', 'memory_list', 'memory_history']);
    expect(remembered.isError).toBeFalsy();
    expect(textOf(recalled)).toContain('[current] The user prefers aisle seats.');
    expect(recalled.structuredContent).toMatchObject({ as_of: null, facts: [{ text: 'The user prefers aisle seats.', tag: 'PREFERENCE', status: 'active', superseded_by: null }] });
    const listed = await runCli(['memory', 'list', '--silo', 'concierge--local', '--json'], { home: home.path });
    expect((JSON.parse(listed.stdout) as Array<{ text: string }>).map((fact) => fact.text)).toEqual(['The user prefers aisle seats.']);
  }, 60_000);

  it('recalls over stdio as memory stood at as_of, from facts remembered with said_at', async () => {
    const { client, transport } = stdioClient('auto', ['concierge', '--offline']);
    await client.connect(transport);

    await client.callTool({ name: 'remember', arguments: { text: 'The user lives in Paris.', keys: ['home'], said_at: '2025-01-10' } });
    await client.callTool({ name: 'remember', arguments: { text: 'Correction: the user now lives in Berlin.', tag: 'CORRECTION', keys: ['home'], said_at: '2025-03-01' } });
    const then = await client.callTool({ name: 'recall', arguments: { query: 'Where does the user live?', as_of: '2025-02-01', limit: 5 } });
    const now = await client.callTool({ name: 'recall', arguments: { query: 'Where does the user live?', limit: 5 } });
    await client.close();

    const statuses = (result: typeof then) => (result.structuredContent as { facts: Array<{ text: string; status: string }> }).facts.map((fact) => `${fact.status}: ${fact.text}`);
    expect(statuses(then)).toEqual(['active: The user lives in Paris.']);
    expect(statuses(now).sort()).toEqual(['active: Correction: the user now lives in Berlin.', 'superseded: The user lives in Paris.']);
  }, 60_000);
});
