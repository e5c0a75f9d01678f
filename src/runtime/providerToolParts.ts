import type { LanguageModelV3ToolCall, LanguageModelV3ToolResult } from '@ai-sdk/provider';
import type { TurnEventBody } from '../core/events.js';

// Tools the provider runs itself (native web search) come back inside the model's reply as
// tool-call and tool-result parts marked providerExecuted. They are shown and stored like any
// tool call, but never run here and never sent back: the provider already used the result.

export type ToolPart = LanguageModelV3ToolCall | LanguageModelV3ToolResult;

/** A tool-result part is always the provider's: results of local tools are ours to produce. */
export function isProviderExecuted(part: ToolPart): part is LanguageModelV3ToolResult | (LanguageModelV3ToolCall & { providerExecuted: true }) {
  return part.type === 'tool-result' || part.providerExecuted === true;
}

function parsedInput(raw: string): unknown {
  try {
    return raw.trim() === '' ? {} : JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** The event for a provider-executed part; undefined for a preliminary result, which a final one replaces. */
export function providerToolEvent(part: ToolPart): TurnEventBody | undefined {
  if (part.type === 'tool-call') return { type: 'tool-call', tool: part.toolName, callId: part.toolCallId, input: parsedInput(part.input) };
  if (part.preliminary) return undefined;
  return { type: 'tool-result', tool: part.toolName, callId: part.toolCallId, output: part.result, isError: part.isError === true };
}
