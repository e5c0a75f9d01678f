import type { ModelFinishReason } from '../core/events.js';

// Names and values from the OpenTelemetry GenAI semantic conventions (development status,
// the "latest experimental" flavour: gen_ai.provider.name, invoke_agent internal spans,
// content as gen_ai.input.messages / gen_ai.output.messages JSON strings).

export const ATTR = {
  operation: 'gen_ai.operation.name',
  provider: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  reasoningTokens: 'gen_ai.usage.reasoning.output_tokens',
  cachedInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  agentName: 'gen_ai.agent.name',
  conversationId: 'gen_ai.conversation.id',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  errorType: 'error.type',
  turnId: 'syndicate.turn.id',
} as const;

export const OPERATION = { invokeAgent: 'invoke_agent', chat: 'chat', executeTool: 'execute_tool' } as const;

/**
 * The `error.type` values this instrumentation reports, besides the turn's own error codes
 * (model_error, model_config, max_steps, output_schema, store_error, cancelled).
 */
export const ERROR_TYPE = {
  other: '_OTHER',
  cancelled: 'cancelled',
  tool: 'tool_error',
  delegation: 'agent_error',
} as const;

// The AI SDK names providers '<family>.<api>'; the conventions want a well-known provider name,
// which is the family itself except for these.
const PROVIDER_NAMES: Readonly<Record<string, string>> = { google: 'gcp.gemini', xai: 'x_ai' };

/** `anthropic.messages` → `anthropic`, `google.generative-ai` → `gcp.gemini`, `lmstudio.chat` → `lmstudio`. */
export function providerName(sdkProvider: string): string {
  const dot = sdkProvider.indexOf('.');
  const family = dot === -1 ? sdkProvider : sdkProvider.slice(0, dot);
  return PROVIDER_NAMES[family] ?? family;
}

const FINISH_REASONS: Readonly<Record<ModelFinishReason, string>> = {
  stop: 'stop',
  length: 'length',
  'content-filter': 'content_filter',
  'tool-calls': 'tool_call',
  error: 'error',
  other: 'other',
};

export function finishReason(reason: ModelFinishReason): string {
  return FINISH_REASONS[reason];
}

/** One message as the conventions' JSON schemas describe it; serialized only when content is captured. */
export function messagesJson(role: 'user' | 'assistant', text: string, reasoning = '', finish?: string): string {
  const parts: Array<{ type: string; content: string }> = [];
  if (reasoning) parts.push({ type: 'reasoning', content: reasoning });
  parts.push({ type: 'text', content: text });
  return JSON.stringify([finish === undefined ? { role, parts } : { role, parts, finish_reason: finish }]);
}

/** Tool arguments and results as recorded: strings as they are, anything else as JSON. */
export function contentString(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
