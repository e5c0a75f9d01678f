import { randomUUID } from 'node:crypto';
import type { CallToolResult, McpServer, ServerContext } from '@modelcontextprotocol/server';
import { errorMessage } from '../core/errors.js';
import type { AnyTool, ToolContext } from '../core/tool.js';

// The one adapter from our Tool contract to an MCP tool: the zod input schema is handed to the
// SDK as is (zod 4 is a Standard Schema with JSON Schema), so tools/list and argument checks
// come from the same schema agents use. There is no second schema to drift.

/** Sends one progress notification to the caller; resolves when it is written. */
export type ProgressSink = (message: string) => Promise<void>;

/** Who is calling through MCP: becomes the `agent` of the ToolContext the tool sees. */
const MCP_CALLER = 'mcp-client';

// Progress is an MCP-only capability, so it rides beside the ToolContext rather than in it:
// a tool asks `progressOf(ctx)` and gets a sink that is a no-op outside MCP or when the client
// sent no progress token (the protocol says: no token, no notifications).
const progressSinks = new WeakMap<ToolContext, ProgressSink>();

const NO_PROGRESS: ProgressSink = () => Promise.resolve();

export function progressOf(ctx: ToolContext): ProgressSink {
  return progressSinks.get(ctx) ?? NO_PROGRESS;
}

// The SDK's client drops a progress notification that it reads together with the response to
// its call ("unknown token", typescript-sdk issue #2580), and some clients close the connection
// over it. A server cannot order bytes in another process's reads, but a result held back until
// the last notification is this old reaches the client in a later read in practice: 50 ms still
// lost one in a dozen test runs on a loaded 2-core machine. Real turns rarely pay it: a model
// step usually separates the last tool call from the answer.
const PROGRESS_SETTLE_MS = 200;

interface CallProgress {
  sink: ProgressSink;
  /** Resolves once the last notification sent is PROGRESS_SETTLE_MS old. */
  settled(): Promise<void>;
}

function callProgress(ctx: ServerContext): CallProgress {
  const token = ctx.mcpReq._meta?.progressToken;
  if (token === undefined) return { sink: NO_PROGRESS, settled: () => Promise.resolve() };
  let progress = 0;
  let lastSent = 0;
  return {
    async sink(message) {
      await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: ++progress, message } });
      lastSent = performance.now();
    },
    settled() {
      const wait = lastSent === 0 ? 0 : PROGRESS_SETTLE_MS - (performance.now() - lastSent);
      return wait > 0 ? new Promise((resolve) => setTimeout(resolve, wait)) : Promise.resolve();
    },
  };
}

/**
 * A tool's output as an MCP result: text for strings, text plus structuredContent for objects.
 * The text is what the tool presents (a tool with an outputSchema is read by models too), else JSON.
 */
function callToolResultOf(tool: AnyTool, output: unknown): CallToolResult {
  if (typeof output === 'string') return { content: [{ type: 'text', text: output }] };
  const value = output ?? null;
  const text = tool.present ? tool.present(value) : JSON.stringify(value);
  // structuredContent must be a JSON object; arrays and scalars travel as text only.
  const structured = typeof value === 'object' && value !== null && !Array.isArray(value);
  return { content: [{ type: 'text', text }], ...(structured ? { structuredContent: value as Record<string, unknown> } : {}) };
}

/** A tool that failed as an MCP tool error: the caller's model reads it; the protocol call itself succeeds. */
function toolErrorResult(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/**
 * Registers `tool` on `server`. Invalid arguments are refused by the SDK as a tool error naming
 * the field; a tool that throws becomes a tool error too; a cancelled call aborts `ctx.signal`.
 */
export function registerTool(server: McpServer, tool: AnyTool): void {
  const config = { description: tool.description, inputSchema: tool.inputSchema, ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}) };
  server.registerTool(tool.name, config, async (input: unknown, mcp: ServerContext) => {
    const ctx: ToolContext = { agent: MCP_CALLER, turnId: randomUUID(), sessionId: undefined, signal: mcp.mcpReq.signal };
    const progress = callProgress(mcp);
    progressSinks.set(ctx, progress.sink);
    let result: CallToolResult;
    try {
      result = callToolResultOf(tool, await tool.execute(input, ctx));
    } catch (error) {
      // Not prefixed with the tool's name: the client knows which tool it called, and adds its own
      // (a syndicate's agent reads "library_borrow_scroll failed: ...", once).
      result = toolErrorResult(errorMessage(error));
    }
    await progress.settled();
    return result;
  });
}
