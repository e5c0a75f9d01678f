import { z } from 'zod';
import type { AnyTool } from '../../core/tool.js';
import { mcpToolOutput } from './callResult.js';
import { createServerConnection, type McpServerConnection, type McpToolInfo } from './serverConnection.js';
import type { McpServerSpec } from './serverSpec.js';
import type { McpClientSettings } from './settings.js';
import { claimName, prefixedToolName } from './toolNames.js';

// The MCP servers of one agent (each agent owns its connections: no process-wide client) and
// the tools they contribute to a turn. A server that is down contributes a warning instead.

/** A discovered tool with the JSON Schema its server declared, offered to the model as it is. */
export interface McpOfferedTool {
  tool: AnyTool;
  inputSchema: Record<string, unknown>;
}

export interface McpTurnTools {
  tools: McpOfferedTool[];
  /** One line per server that is unavailable this turn, naming it and saying why. */
  warnings: string[];
}

export interface AgentMcpTools {
  /** Starts every connection in the background. */
  open(): void;
  /** The tools of every reachable server; `reserved` are names the agent already uses (they win). */
  forTurn(reserved: ReadonlySet<string>, signal: AbortSignal): Promise<McpTurnTools>;
  close(): Promise<void>;
}

// MCP arguments are always a JSON object; the server validates them against its own schema
// and answers a mismatch with an error result the model can read.
const argumentsSchema = z.record(z.string(), z.unknown());

function offeredSchema(info: McpToolInfo): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = info.inputSchema as Record<string, unknown>;
  return { ...schema, type: 'object' };
}

function offeredTool(name: string, server: string, info: McpToolInfo, connection: McpServerConnection): McpOfferedTool {
  const tool: AnyTool = {
    name,
    description: info.description ?? info.title ?? `The tool '${info.name}' of the MCP server '${server}'.`,
    inputSchema: argumentsSchema,
    execute: async (args: Record<string, unknown>, ctx) => mcpToolOutput(server, info.name, await connection.call(info.name, args, ctx.signal)),
  };
  return { tool, inputSchema: offeredSchema(info) };
}

export function createAgentMcpTools(specs: readonly McpServerSpec[], settings: McpClientSettings): AgentMcpTools {
  const connections = specs.map((spec) => createServerConnection(spec, settings));
  return {
    open() {
      for (const connection of connections) connection.open();
    },

    async forTurn(reserved, signal) {
      const listed = await Promise.all(connections.map((connection) => connection.tools(signal)));
      const taken = new Set(reserved);
      const tools: McpOfferedTool[] = [];
      const warnings: string[] = [];
      listed.forEach((result, index) => {
        if (!result.ok) {
          warnings.push(`MCP server '${result.server}' is unavailable, so its tools are left out of this turn: ${result.problem}`);
          return;
        }
        for (const info of result.tools) tools.push(offeredTool(claimName(prefixedToolName(result.server, info.name), taken), result.server, info, connections[index]!));
      });
      return { tools, warnings };
    },

    async close() {
      await Promise.all(connections.map((connection) => connection.close()));
    },
  };
}
