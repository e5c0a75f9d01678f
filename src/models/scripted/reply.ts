import type { LanguageModelV3Content, LanguageModelV3FinishReason, LanguageModelV3Usage } from '@ai-sdk/provider';

export interface ScriptedToolCall {
  toolCallId: string;
  toolName: string;
  /** JSON text, as providers deliver it. */
  input: string;
}

/** One model step's output, before it is shaped for doGenerate or doStream. */
export interface ScriptedReply {
  reasoning?: string;
  text?: string;
  toolCalls?: ScriptedToolCall[];
}

export function toContent(reply: ScriptedReply): LanguageModelV3Content[] {
  const content: LanguageModelV3Content[] = [];
  if (reply.reasoning !== undefined) content.push({ type: 'reasoning', text: reply.reasoning });
  if (reply.text !== undefined) content.push({ type: 'text', text: reply.text });
  if (reply.toolCalls) {
    for (const call of reply.toolCalls) content.push({ type: 'tool-call', ...call });
  }
  return content;
}

const TOOL_CALLS: LanguageModelV3FinishReason = { unified: 'tool-calls', raw: 'tool_calls' };
const STOP: LanguageModelV3FinishReason = { unified: 'stop', raw: 'stop' };

export function finishReasonOf(reply: ScriptedReply): LanguageModelV3FinishReason {
  return reply.toolCalls?.length ? TOOL_CALLS : STOP;
}

const tokens = (chars: number): number => Math.ceil(chars / 4);

/** Token counts the way a real provider reports them, at ~4 characters per token. */
export function usageOf(promptChars: number, reply: ScriptedReply): LanguageModelV3Usage {
  const reasoningChars = reply.reasoning?.length ?? 0;
  let outputChars = reasoningChars + (reply.text?.length ?? 0);
  if (reply.toolCalls) {
    for (const call of reply.toolCalls) outputChars += call.input.length;
  }
  const input = tokens(promptChars);
  const output = tokens(outputChars);
  const reasoning = tokens(reasoningChars);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output - reasoning, reasoning },
  };
}
