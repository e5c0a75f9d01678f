import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serveMcpHttp, type McpHttpServer } from '../../src/mcp/http/serveHttp.js';
import { LOCAL_CALLER } from '../../src/mcp/callerAuth.js';
import { syndicateServerFactory, syndicateServerTools } from '../../src/mcp/syndicateServer.js';
import type { CompiledSyndicate } from '../../src/runtime/compileSyndicate.js';
import { defineTool, type AnyTool } from '../../src/core/tool.js';
import { clerk, connectHttp, textOf } from './fixtures.js';

// Extra tools per syndicate (the lead plugs the memory tools in through `toolsFor`).

/** A stand-in for a silo-scoped memory tool: it answers with the syndicate it was bound to. */
function whichSilo(syndicate: CompiledSyndicate): AnyTool {
  return defineTool({
    name: 'which_silo',
    description: 'Names the silo this tool is bound to.',
    inputSchema: z.object({ user: z.string() }),
    execute: ({ user }) => `${syndicate.name.toLowerCase()}--${user}`,
  });
}

describe('extra tools served next to ask_<syndicate>', () => {
  let server: McpHttpServer | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('keeps their own names when one syndicate is served', async () => {
    const tools = await syndicateServerTools({ version: '0', caller: 'http', syndicates: [{ syndicate: clerk(), store: undefined }], toolsFor: (s) => [whichSilo(s)] }, LOCAL_CALLER);

    expect(tools.map((tool) => tool.name)).toEqual(['ask_clerk', 'which_silo']);
  });

  it("prefixes each syndicate's extra tools with its name when several are served", async () => {
    const syndicates = [clerk({ name: 'Council' }), clerk({ name: 'Triage Desk' })].map((syndicate) => ({ syndicate, store: undefined }));

    const tools = await syndicateServerTools({ version: '0', caller: 'http', syndicates, toolsFor: (s) => [whichSilo(s)] }, LOCAL_CALLER);

    expect(tools.map((tool) => tool.name)).toEqual(['ask_council', 'council_which_silo', 'ask_triage_desk', 'triage_desk_which_silo']);
  });

  it('refuses two syndicates that would serve the same tool name', async () => {
    const syndicates = [clerk({ name: 'Clerk' }), clerk({ name: 'clerk' })].map((syndicate) => ({ syndicate, store: undefined }));

    await expect(syndicateServerTools({ version: '0', caller: 'http', syndicates }, LOCAL_CALLER)).rejects.toThrow("the syndicates 'Clerk' and 'clerk' would both serve a tool named 'ask_clerk'");
  });

  it('calls an extra tool bound to its own syndicate through MCP', async () => {
    const syndicates = [clerk({ name: 'Council' }), clerk({ name: 'Triage' })].map((syndicate) => ({ syndicate, store: undefined }));
    server = await serveMcpHttp(syndicateServerFactory({ version: '0', caller: 'http', syndicates, toolsFor: (s) => [whichSilo(s)] }), { host: '127.0.0.1', port: 0 });
    const client = await connectHttp(server.url, 'auto');

    const result = await client.callTool({ name: 'triage_which_silo', arguments: { user: 'ada' } });
    await client.close();

    expect(textOf(result)).toBe('triage--ada');
  });
});
