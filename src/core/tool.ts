import type { z } from 'zod';

// One Tool contract for agents, the MCP server face and A2A skills alike.

export interface ToolContext {
  /** The agent calling the tool. */
  agent: string;
  turnId: string;
  sessionId: string | undefined;
  signal: AbortSignal;
}

export interface Tool<Input = unknown, Output = unknown> {
  name: string;
  description: string;
  inputSchema: z.ZodType<Input>;
  execute(input: Input, ctx: ToolContext): Promise<Output> | Output;
}

/** What the model sees after a call: never a thrown error. */
export type ToolResult = { isError: false; output: unknown } | { isError: true; output: string };

// Tools are stored heterogeneously; `any` input keeps Tool<Specific> assignable here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = Tool<any, unknown>;

export function defineTool<Input, Output>(tool: Tool<Input, Output>): Tool<Input, Output> {
  return tool;
}
