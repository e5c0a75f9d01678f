import type { TurnEventBody } from './events.js';
import type { z } from 'zod';
import type { SessionNotes } from './notes.js';

// One Tool contract for agents, the MCP server face and A2A skills alike.

export interface ToolContext {
  /** The agent calling the tool. */
  agent: string;
  turnId: string;
  sessionId: string | undefined;
  signal: AbortSignal;
  /** The session's scratchpad; absent when the caller keeps no session (no store, or memory_system: internal-only). */
  notes?: SessionNotes;
  /** Adds an event a tool reports to the turn's stream, as the calling agent's. */
  report?: (event: ToolReportedEvent) => void;
}

/** The events a tool may add to the turn's stream. */
export type ToolReportedEvent = Extract<TurnEventBody, { type: 'skill-activated' }>;

export interface Tool<Input = unknown, Output = unknown> {
  name: string;
  description: string;
  inputSchema: z.ZodType<Input>;
  /** The object execute returns, declared to faces that publish it (MCP's outputSchema and structuredContent). */
  outputSchema?: z.ZodType<Output>;
  /** A structured output as a person or model reads it (MCP's text content, A2A's text); JSON when absent. */
  present?(output: Output): string;
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
