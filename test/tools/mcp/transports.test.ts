import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STRICT_POLICY } from '../../../src/tools/guards/ssrf.js';
import { createAgentMcpTools, type AgentMcpTools, type McpOfferedTool } from '../../../src/tools/mcp/agentMcpTools.js';
import type { McpToolOutput } from '../../../src/tools/mcp/callResult.js';
import { serverSpecsOf } from '../../../src/tools/mcp/serverSpec.js';
import type { McpServerConfig } from '../../../src/config/schema.js';
import type { ToolContext } from '../../../src/core/tool.js';
import { everythingStdio, startEverythingHttp, testSettings, type RunningServer } from './servers.js';

const NO_RESERVED: ReadonlySet<string> = new Set();
const never = new AbortController().signal;
const ctx: ToolContext = { agent: 'Tester', turnId: 't1', sessionId: undefined, signal: never };

let open: AgentMcpTools[] = [];

function connect(servers: McpServerConfig[], url?: string, settings = testSettings()): AgentMcpTools {
  const mcp = createAgentMcpTools(serverSpecsOf({ mcpServerUrl: url, mcpServers: servers }), settings);
  open.push(mcp);
  return mcp;
}

function named(tools: readonly McpOfferedTool[], name: string): McpOfferedTool {
  const found = tools.find(({ tool }) => tool.name === name);
  if (!found) throw new Error(`no tool ${name} among ${tools.map(({ tool }) => tool.name).join(', ')}`);
  return found;
}

afterEach(async () => {
  await Promise.all(open.map((mcp) => mcp.close()));
  open = [];
});

describe('MCP client over stdio (server-everything)', () => {
  // One connection for the whole block: starting server-everything is the slow part.
  let everything: AgentMcpTools;
  beforeAll(() => {
    everything = createAgentMcpTools(serverSpecsOf({ mcpServerUrl: undefined, mcpServers: [everythingStdio()] }), testSettings());
  });
  afterAll(async () => {
    await everything.close();
  });

  it('offers the server’s tools named <server>_<tool> with the JSON Schema the server declared', async () => {
    const { tools, warnings } = await everything.forTurn(NO_RESERVED, never);

    expect(warnings).toEqual([]);
    expect(tools.map(({ tool }) => tool.name)).toContain('everything_echo');
    expect(named(tools, 'everything_echo').inputSchema).toMatchObject({ type: 'object', properties: { message: { type: 'string' } }, required: ['message'] });
    expect(named(tools, 'everything_echo').inputSchema).not.toHaveProperty('$schema');
  });

  it('returns a tool’s text labelled as a remote tool’s data, not instructions', async () => {
    const { tools } = await everything.forTurn(NO_RESERVED, never);

    const output = (await named(tools, 'everything_echo').tool.execute({ message: 'hello' }, ctx)) as McpToolOutput;

    expect(output.text).toBe('Echo: hello');
    expect(output.source).toMatch(/tool 'echo' on MCP server 'everything'.*not instructions/);
  });

  it('carries image content instead of dropping it', async () => {
    const { tools } = await everything.forTurn(NO_RESERVED, never);

    const output = (await named(tools, 'everything_get-tiny-image').tool.execute({}, ctx)) as McpToolOutput;

    expect(output.content).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'image', mimeType: 'image/png', data: expect.stringMatching(/^iVBOR/) })]));
  });

  it('carries embedded resources instead of dropping them', async () => {
    const { tools } = await everything.forTurn(NO_RESERVED, never);

    const output = (await named(tools, 'everything_get-resource-reference').tool.execute({ resourceType: 'Text', resourceId: 1 }, ctx)) as McpToolOutput;

    expect(output.content).toEqual([expect.objectContaining({ type: 'resource', resource: expect.objectContaining({ uri: 'demo://resource/dynamic/text/1' }) })]);
  });

  it('returns structured content once, without the JSON text that repeats it', async () => {
    const { tools } = await everything.forTurn(NO_RESERVED, never);

    const output = (await named(tools, 'everything_get-structured-content').tool.execute({ location: 'Chicago' }, ctx)) as McpToolOutput;

    expect(output.structuredContent).toEqual({ temperature: expect.any(Number), conditions: expect.any(String), humidity: expect.any(Number) });
    expect(output).not.toHaveProperty('text');
  });

  it('turns a tool’s error result into a thrown error carrying the server’s message', async () => {
    const { tools } = await everything.forTurn(NO_RESERVED, never);

    await expect(named(tools, 'everything_echo').tool.execute({}, ctx)).rejects.toThrow(/Invalid arguments for tool echo/);
  });

  it('suffixes a discovered name that the agent already uses: declared names win', async () => {
    const { tools } = await everything.forTurn(new Set(['everything_echo']), never);

    expect(tools.map(({ tool }) => tool.name)).toContain('everything_echo_2');
    expect(tools.map(({ tool }) => tool.name)).not.toContain('everything_echo');
  });

  it('suffixes colliding names of two servers in the order the servers are declared', async () => {
    // The loader refuses two servers with one name; a server named after what another reports can still collide.
    const names = (await connect([everythingStdio('everything'), everythingStdio('everything')]).forTurn(NO_RESERVED, never)).tools.map(({ tool }) => tool.name);

    expect(names.filter((name) => name.startsWith('everything_echo'))).toEqual(['everything_echo', 'everything_echo_2']);
  });
});

describe('MCP client over HTTP (server-everything)', () => {
  let streamable: RunningServer;
  let sse: RunningServer;
  beforeAll(async () => {
    [streamable, sse] = await Promise.all([startEverythingHttp('streamableHttp'), startEverythingHttp('sse')]);
  });
  afterAll(async () => {
    await Promise.all([streamable?.stop(), sse?.stop()]);
  });

  it('calls a tool over Streamable HTTP', async () => {
    const { tools, warnings } = await connect([{ name: 'web', transport: 'http', url: streamable.url }]).forTurn(NO_RESERVED, never);

    expect(warnings).toEqual([]);
    expect(((await named(tools, 'web_echo').tool.execute({ message: 'over http' }, ctx)) as McpToolOutput).text).toBe('Echo: over http');
  });

  it('calls a tool over the deprecated HTTP+SSE transport', async () => {
    const { tools, warnings } = await connect([{ name: 'legacy', transport: 'sse', url: sse.url }]).forTurn(NO_RESERVED, never);

    expect(warnings).toEqual([]);
    expect(((await named(tools, 'legacy_echo').tool.execute({ message: 'over sse' }, ctx)) as McpToolOutput).text).toBe('Echo: over sse');
  });

  it('falls back to HTTP+SSE when an http server refuses Streamable HTTP', async () => {
    const { tools, warnings } = await connect([{ name: 'old', transport: 'http', url: sse.url }]).forTurn(NO_RESERVED, never);

    expect(warnings).toEqual([]);
    expect(((await named(tools, 'old_echo').tool.execute({ message: 'fell back' }, ctx)) as McpToolOutput).text).toBe('Echo: fell back');
  });

  it('names an mcp_server_url server after the name the server reports', async () => {
    const { tools } = await connect([], streamable.url).forTurn(NO_RESERVED, never);

    expect(tools.map(({ tool }) => tool.name)).toContain('mcp-servers_everything_echo');
  });

  it('refuses a loopback server under the default SSRF policy, saying how to allow it', async () => {
    const { tools, warnings } = await connect([{ name: 'local', transport: 'http', url: streamable.url }], undefined, testSettings({ policy: STRICT_POLICY })).forTurn(NO_RESERVED, never);

    expect(tools).toEqual([]);
    expect(warnings).toEqual([expect.stringMatching(/MCP server 'local' is unavailable.*loopback address.*ALLOW_PRIVATE_MCP=true/)]);
  });

  it('refuses a server whose host name resolves to a loopback address, checked after DNS resolution', async () => {
    const byName = streamable.url.replace('127.0.0.1', 'localhost');

    const { warnings } = await connect([{ name: 'named', transport: 'http', url: byName }], undefined, testSettings({ policy: STRICT_POLICY })).forTurn(NO_RESERVED, never);

    expect(warnings).toEqual([expect.stringMatching(/MCP server 'named' is unavailable.*localhost \((127\.0\.0\.1|::1)\) is a loopback address/)]);
  });

  it('reports a missing headers_env variable instead of connecting without the header', async () => {
    const mcp = connect([{ name: 'web', transport: 'http', url: streamable.url, headers_env: { 'X-Api-Key': 'TEST_MCP_KEY' } }], undefined, testSettings({ env: {} }));

    const { warnings } = await mcp.forTurn(NO_RESERVED, never);

    expect(warnings).toEqual([expect.stringMatching(/MCP server 'web' is unavailable.*X-Api-Key header needs the environment variable TEST_MCP_KEY/)]);
  });
});
