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
    const listed = await runCli(['memory', 'list', '--silo', 'concierge--local', '--json'], { home: home.path });
    expect((JSON.parse(listed.stdout) as Array<{ text: string }>).map((fact) => fact.text)).toEqual(['The user prefers aisle seats.']);
  }, 60_000);
});
