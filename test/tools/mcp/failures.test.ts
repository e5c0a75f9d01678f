import { afterEach, describe, expect, it } from 'vitest';
import type { McpServerConfig } from '../../../src/config/schema.js';
import { createAgentMcpTools, type AgentMcpTools, type McpOfferedTool } from '../../../src/tools/mcp/agentMcpTools.js';
import type { McpToolOutput } from '../../../src/tools/mcp/callResult.js';
import { serverSpecsOf } from '../../../src/tools/mcp/serverSpec.js';
import type { McpClientSettings } from '../../../src/tools/mcp/settings.js';
import type { ToolContext } from '../../../src/core/tool.js';
import { flakyStdio, testSettings } from './servers.js';

const NO_RESERVED: ReadonlySet<string> = new Set();
const never = new AbortController().signal;
const ctx: ToolContext = { agent: 'Tester', turnId: 't1', sessionId: undefined, signal: never };

let open: AgentMcpTools[] = [];
afterEach(async () => {
  await Promise.all(open.map((mcp) => mcp.close()));
  open = [];
});

function connect(servers: McpServerConfig[], overrides: Partial<McpClientSettings> = {}): AgentMcpTools {
  const mcp = createAgentMcpTools(serverSpecsOf({ mcpServerUrl: undefined, mcpServers: servers }), testSettings(overrides));
  open.push(mcp);
  return mcp;
}

function tool(tools: readonly McpOfferedTool[], name: string): McpOfferedTool['tool'] {
  const found = tools.find((offered) => offered.tool.name === name);
  if (!found) throw new Error(`no tool ${name} among ${tools.map((offered) => offered.tool.name).join(', ')}`);
  return found.tool;
}

const names = (tools: readonly McpOfferedTool[]): string[] => tools.map((offered) => offered.tool.name);

describe('MCP servers that fail', () => {
  it('fails the call of a server that crashes mid-session, then reconnects it for the next turn', async () => {
    const mcp = connect([flakyStdio()], { backoffBaseMs: 60_000 });
    const first = await mcp.forTurn(NO_RESERVED, never);

    await expect(tool(first.tools, 'flaky_crash').execute({}, ctx)).rejects.toThrow(/MCP server 'flaky' failed: .*closed/i);
    const next = await mcp.forTurn(NO_RESERVED, never);

    expect(next.warnings).toEqual([]);
    expect(((await tool(next.tools, 'flaky_echo').execute({ message: 'back' }, ctx)) as McpToolOutput).text).toBe('echo: back');
  });

  it('gives up on a call to a hung server after the request timeout and reconnects it', async () => {
    const mcp = connect([flakyStdio()], { requestTimeoutMs: 1_000, backoffBaseMs: 0 });
    const first = await mcp.forTurn(NO_RESERVED, never);

    await expect(tool(first.tools, 'flaky_hang').execute({}, ctx)).rejects.toThrow(/MCP server 'flaky' did not answer hang within 1000 ms, so it will be reconnected/);
    const next = await mcp.forTurn(NO_RESERVED, never);

    expect(next.warnings).toEqual([]);
    expect(((await tool(next.tools, 'flaky_echo').execute({ message: 'fresh' }, ctx)) as McpToolOutput).text).toBe('echo: fresh');
  });

  it('backs off from a server that hung instead of reconnecting every turn', async () => {
    const mcp = connect([flakyStdio()], { requestTimeoutMs: 1_000, backoffBaseMs: 60_000, backoffMaxMs: 60_000 });
    const first = await mcp.forTurn(NO_RESERVED, never);
    await expect(tool(first.tools, 'flaky_hang').execute({}, ctx)).rejects.toThrow(/did not answer/);

    const next = await mcp.forTurn(NO_RESERVED, never);

    expect(next.tools).toEqual([]);
    expect(next.warnings).toEqual([expect.stringMatching(/MCP server 'flaky' is unavailable, so its tools are left out of this turn: it did not answer hang .*\(next attempt in 60 s\)/)]);
  });

  it('leaves out only the tools of a server that cannot start, with a warning naming it', async () => {
    const broken: McpServerConfig = { name: 'broken', transport: 'stdio', command: process.execPath, args: ['-e', 'process.stderr.write("no config found"); process.exit(2)'] };
    const mcp = connect([broken, flakyStdio()]);

    const { tools, warnings } = await mcp.forTurn(NO_RESERVED, never);

    expect(names(tools)).toContain('flaky_echo');
    expect(names(tools).some((name) => name.startsWith('broken'))).toBe(false);
    expect(warnings).toEqual([expect.stringMatching(/^MCP server 'broken' is unavailable, so its tools are left out of this turn: could not start .*no config found/)]);
  });

  it('fetches the tool list again after the server announces that it changed', async () => {
    const mcp = connect([flakyStdio()], { toolListTtlMs: 60 * 60_000 });
    const first = await mcp.forTurn(NO_RESERVED, never);
    expect(names(first.tools)).not.toContain('flaky_added');

    await tool(first.tools, 'flaky_grow').execute({}, ctx);
    const next = await mcp.forTurn(NO_RESERVED, never);

    expect(names(next.tools)).toContain('flaky_added');
  });
});
