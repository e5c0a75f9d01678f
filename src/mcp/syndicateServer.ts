import { McpServer, type McpServerFactory } from '@modelcontextprotocol/server';
import type { CompiledSyndicate } from '../runtime/compileSyndicate.js';
import type { AnyTool } from '../core/tool.js';
import type { Caller } from '../a2a/caller.js';
import { ASK_PREFIX, askTool, type McpCaller, type ServedSyndicate } from './askTool.js';
import { callerOfAuth } from './callerAuth.js';
import { registerTool } from './toolAdapter.js';

// Syndicate as an MCP server: one `ask_<syndicate>` tool per syndicate, plus any tools the
// caller adds per syndicate (its memory tools: remember, recall, memory_* scoped to its silo).
// Tools are built for the caller of each server instance, so each uses that caller's silo.

export interface SyndicateServerOptions {
  syndicates: readonly ServedSyndicate[];
  /** The transport served: sessions are kept apart per caller. */
  caller: McpCaller;
  /** Extra tools served next to a syndicate's ask tool for one caller, e.g. its memory tools bound to the caller's silo. */
  toolsFor?(syndicate: CompiledSyndicate, caller: Caller): readonly AnyTool[] | Promise<readonly AnyTool[]>;
  /** Reported as serverInfo.version. */
  version: string;
}

/** `ask_council` -> `council_`: the prefix of a syndicate's extra tools when several syndicates share a server. */
function extraToolPrefix(askName: string): string {
  return `${askName.slice(ASK_PREFIX.length)}_`;
}

/**
 * Every tool the server offers, in order: each syndicate's ask tool, then its extra tools. With
 * one syndicate the extra tools keep their names (memory_search); with several, each syndicate's
 * are prefixed with its name (council_memory_search), since each is bound to its own silo.
 * Throws when two tools would still share a name (MCP tool names must be unique).
 */
export async function syndicateServerTools(options: SyndicateServerOptions, caller: Caller): Promise<AnyTool[]> {
  const tools = new Map<string, { tool: AnyTool; owner: string }>();
  const prefixed = options.syndicates.length > 1;
  for (const served of options.syndicates) {
    const owner = served.syndicate.name;
    const ask = askTool(served, options.caller, caller);
    const extra = ((await options.toolsFor?.(served.syndicate, caller)) ?? []).map((tool) => (prefixed ? { ...tool, name: `${extraToolPrefix(ask.name)}${tool.name}` } : tool));
    for (const tool of [ask, ...extra]) {
      const taken = tools.get(tool.name);
      if (taken) {
        throw new Error(`the syndicates '${taken.owner}' and '${owner}' would both serve a tool named '${tool.name}': rename one (syndicate_name) or serve them from separate \`syndicate mcp\` processes`);
      }
      tools.set(tool.name, { tool, owner });
    }
  }
  return [...tools.values()].map(({ tool }) => tool);
}

/**
 * A factory of MCP server instances: the SDK's serving entries build one per stdio connection
 * and one per HTTP request or session, each with the tools of its caller (see callerAuth.ts).
 */
export function syndicateServerFactory(options: SyndicateServerOptions): McpServerFactory {
  return async (context) => {
    const tools = await syndicateServerTools(options, callerOfAuth(context.authInfo, options.caller));
    const server = new McpServer({ name: 'syndicate', version: options.version }, { capabilities: { tools: {} } });
    for (const tool of tools) registerTool(server, tool);
    return server;
  };
}
