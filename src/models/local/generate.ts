import type { LanguageModelV3FinishReason, LanguageModelV3Usage } from '@ai-sdk/provider';
import type { LocalModel } from './localModelCache.js';
import type { FunctionCallResult, GenerateResponseOptions, ResponseItem, StopReason, Token } from './nodeLlamaCpp.js';
import type { GenerationPlan } from './plan.js';

// One generation on a loaded model: the plan's history rendered through the model's chat
// template (node-llama-cpp resolves the wrapper from the GGUF's template, or a default for the
// architecture), sampled under the plan's grammar or with its tools, and counted.

export interface GeneratedToolCall {
  toolName: string;
  /** JSON text of the arguments. */
  input: string;
}

/** Receives the reply as it is sampled. */
export interface GenerationListener {
  text(delta: string): void;
  reasoning(delta: string): void;
}

export interface Generation {
  text: string;
  /** The model's chain of thought, when its chat wrapper marks one; never part of `text`. */
  reasoning: string;
  toolCalls: GeneratedToolCall[];
  finishReason: LanguageModelV3FinishReason;
  usage: LanguageModelV3Usage;
  /** The chat wrapper and the rendered prompt, for debugging and tracing. */
  request: { chatWrapper: string; prompt: string };
}

function finishReasonOf(stopReason: StopReason, toolCalls: number): LanguageModelV3FinishReason {
  if (toolCalls > 0) return { unified: 'tool-calls', raw: stopReason };
  switch (stopReason) {
    case 'eogToken':
    case 'stopGenerationTrigger':
    case 'customStopTrigger':
      return { unified: 'stop', raw: stopReason };
    case 'maxTokens':
      return { unified: 'length', raw: stopReason };
    default:
      return { unified: 'other', raw: stopReason };
  }
}

function sharedPrefixLength(a: readonly Token[], b: readonly Token[]): number {
  const limit = Math.min(a.length, b.length);
  let i = 0;
  while (i < limit && a[i] === b[i]) i++;
  return i;
}

function usageOf(promptTokens: number, reusedTokens: number, outputTokens: number): LanguageModelV3Usage {
  return {
    inputTokens: { total: promptTokens, noCache: promptTokens - reusedTokens, cacheRead: reusedTokens, cacheWrite: undefined },
    outputTokens: { total: outputTokens, text: outputTokens, reasoning: undefined },
  };
}

/** A forced tool call's reply, {"name", "arguments"}; undefined if generation stopped before the JSON closed. */
function parseForcedCall(text: string): GeneratedToolCall | undefined {
  try {
    const parsed = JSON.parse(text) as { name: string; arguments: unknown };
    return { toolName: parsed.name, input: JSON.stringify(parsed.arguments) };
  } catch {
    return undefined;
  }
}

function reasoningOf(items: readonly ResponseItem[]): string {
  return items.map((item) => (typeof item !== 'string' && item.segmentType === 'thought' ? item.text : '')).join('');
}

function responseOptions(plan: GenerationPlan, room: number, signal: AbortSignal | undefined, listener: GenerationListener | undefined): GenerateResponseOptions {
  const options: GenerateResponseOptions = { ...plan.sampling, signal };
  // Unbounded, a model that never ends its turn fills the context and fails in a context shift.
  if (options.maxTokens === undefined && room > 0) options.maxTokens = room;
  if (plan.functions) {
    options.functions = plan.functions;
    options.documentFunctionParams = true;
  }
  // A forced call's JSON is a tool call, not text for the reader.
  if (listener && !plan.forcedToolCall) {
    options.onResponseChunk = (chunk) => {
      if (chunk.type === undefined) listener.text(chunk.text);
      else if (chunk.segmentType === 'thought') listener.reasoning(chunk.text);
    };
  }
  return options;
}

function replyOf(plan: GenerationPlan, response: string, functionCalls: readonly FunctionCallResult[] = []): { text: string; toolCalls: GeneratedToolCall[] } {
  const forced = plan.forcedToolCall ? parseForcedCall(response) : undefined;
  if (forced) return { text: '', toolCalls: [forced] };
  return { text: response, toolCalls: functionCalls.map((call) => ({ toolName: call.functionName, input: JSON.stringify(call.params ?? {}) })) };
}

export async function generate(local: LocalModel, plan: GenerationPlan, signal: AbortSignal | undefined, listener?: GenerationListener): Promise<Generation> {
  const grammar = plan.grammar ? await local.grammar(plan.grammar) : undefined;
  return local.exclusive(async () => {
    const { chat, model } = local;
    const rendered = chat.chatWrapper.generateContextState({ chatHistory: plan.history, availableFunctions: plan.functions, documentFunctionParams: true }).contextText;
    const promptTokens = rendered.tokenize(model.tokenizer);
    const reused = sharedPrefixLength(chat.sequence.contextTokens, promptTokens);
    const before = chat.sequence.tokenMeter.getState().usedOutputTokens;

    const options = responseOptions(plan, local.contextSize - promptTokens.length, signal, listener);
    const result = await chat.generateResponse(plan.history, { ...options, grammar });

    const outputTokens = chat.sequence.tokenMeter.getState().usedOutputTokens - before;
    const { text, toolCalls } = replyOf(plan, result.response, result.functionCalls);
    return {
      text,
      reasoning: reasoningOf(result.fullResponse),
      toolCalls,
      finishReason: finishReasonOf(result.metadata.stopReason, toolCalls.length),
      usage: usageOf(promptTokens.length, reused, outputTokens),
      request: { chatWrapper: chat.chatWrapper.wrapperName, prompt: rendered.toString() },
    };
  }, signal);
}
