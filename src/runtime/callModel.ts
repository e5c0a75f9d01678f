import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Message,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
  SharedV3ProviderMetadata,
} from '@ai-sdk/provider';
import type { CompiledAgent } from './compileSyndicate.js';
import { errorMessage } from '../core/errors.js';
import type { ModelCallDetails, ModelCallOutcome, UsageFigures } from '../core/events.js';
import { withRetries, type ModelAttempt } from './modelAttempts.js';
import { isProviderExecuted, providerToolEvent, type ToolPart } from './providerToolParts.js';
import type { TurnContext } from './turnContext.js';

// One model call, driven on the provider interface directly (not through generateText):
// streamed parts become live deltas (or a whole step arrives at once when no one streams),
// and the step comes back as plain data.

export type ParsedArguments = { ok: true; value: unknown } | { ok: false; problem: string };

export interface ModelToolCall {
  toolCallId: string;
  toolName: string;
  /** Raw JSON text as the model produced it. */
  input: string;
  args: ParsedArguments;
  /** Set on a call a code-mode script made: the execute_code call it ran in. */
  parentCallId?: string;
}

function parseArguments(raw: string): ParsedArguments {
  if (raw.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch (error) {
    return { ok: false, problem: `arguments are not valid JSON (${(error as Error).message})` };
  }
}

/** A block of thinking with what the provider attached to it (Anthropic's signature, OpenAI's item id). */
export interface ReasoningBlock {
  text: string;
  providerMetadata?: SharedV3ProviderMetadata;
}

export interface ModelStep {
  text: string;
  reasoning: string;
  reasoningBlocks: ReasoningBlock[];
  toolCalls: ModelToolCall[];
  usage: UsageFigures;
  finishReason?: ModelCallDetails['finishReason'];
  responseModel?: string;
}

function usageOf(usage: LanguageModelV3Usage | undefined): UsageFigures {
  return {
    inputTokens: usage?.inputTokens.total ?? 0,
    outputTokens: usage?.outputTokens.total ?? 0,
    reasoningTokens: usage?.outputTokens.reasoning ?? 0,
    cachedInputTokens: usage?.inputTokens.cacheRead ?? 0,
  };
}

export interface CallModelOptions {
  agent: CompiledAgent;
  prompt: LanguageModelV3Message[];
  depth: number;
  /** Offer the agent's tools (false for a schema repair call). */
  withTools: boolean;
  responseFormat: LanguageModelV3CallOptions['responseFormat'];
  /** Stream text deltas to the turn's listeners (false for a classifier). */
  emitText: boolean;
}

function appendText(turn: TurnContext, options: CallModelOptions, step: ModelStep, delta: string): void {
  step.text += delta;
  if (options.emitText) turn.emit(options.agent.name, options.depth, { type: 'text-delta', delta });
}

function appendReasoning(turn: TurnContext, options: CallModelOptions, step: ModelStep, block: ReasoningBlock, delta: string): void {
  block.text += delta;
  step.reasoning += delta;
  // Anthropic sends its signature as an empty delta: metadata, not thinking anyone should see.
  if (delta) turn.emit(options.agent.name, options.depth, { type: 'thinking-delta', delta });
}

function mergeMetadata(block: ReasoningBlock, metadata: SharedV3ProviderMetadata | undefined): void {
  if (!metadata) return;
  const merged: SharedV3ProviderMetadata = { ...block.providerMetadata };
  for (const [provider, values] of Object.entries(metadata)) merged[provider] = { ...merged[provider], ...values };
  block.providerMetadata = merged;
}

function newBlock(step: ModelStep, metadata?: SharedV3ProviderMetadata): ReasoningBlock {
  const block: ReasoningBlock = { text: '' };
  mergeMetadata(block, metadata);
  step.reasoningBlocks.push(block);
  return block;
}

/** A provider-executed call or result is only reported; a local call is kept for the tool loop. */
function addToolCall(turn: TurnContext, options: CallModelOptions, step: ModelStep, part: ToolPart): void {
  if (isProviderExecuted(part)) {
    const event = providerToolEvent(part);
    if (event) turn.emit(options.agent.name, options.depth, event);
    return;
  }
  step.toolCalls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input, args: parseArguments(part.input) });
}

function emptyStep(): ModelStep {
  return { text: '', reasoning: '', reasoningBlocks: [], toolCalls: [], usage: usageOf(undefined) };
}

async function streamStep(turn: TurnContext, options: CallModelOptions, call: LanguageModelV3CallOptions, attempt: ModelAttempt): Promise<ModelStep> {
  const { stream } = await options.agent.model.doStream(call);
  const reader = stream.getReader();
  const step = emptyStep();
  const blocks = new Map<string, ReasoningBlock>();
  const blockOf = (id: string): ReasoningBlock => blocks.get(id) ?? blocks.set(id, newBlock(step)).get(id)!;
  while (true) {
    const { done, value } = await reader.read();
    if (done) return step;
    attempt.progress();
    const part: LanguageModelV3StreamPart = value;
    switch (part.type) {
      case 'text-delta':
        attempt.outputStarted();
        appendText(turn, options, step, part.delta);
        break;
      case 'reasoning-start':
        mergeMetadata(blockOf(part.id), part.providerMetadata);
        break;
      case 'reasoning-delta': {
        attempt.outputStarted();
        const block = blockOf(part.id);
        mergeMetadata(block, part.providerMetadata);
        appendReasoning(turn, options, step, block, part.delta);
        break;
      }
      case 'reasoning-end':
        mergeMetadata(blockOf(part.id), part.providerMetadata);
        break;
      case 'tool-call':
      case 'tool-result':
        attempt.outputStarted();
        addToolCall(turn, options, step, part);
        break;
      case 'finish':
        step.usage = usageOf(part.usage);
        step.finishReason = part.finishReason.unified;
        break;
      case 'response-metadata':
        if (part.modelId) step.responseModel = part.modelId;
        break;
      case 'error':
        throw part.error;
      default:
        break;
    }
  }
}

async function generateStep(turn: TurnContext, options: CallModelOptions, call: LanguageModelV3CallOptions): Promise<ModelStep> {
  const result = await options.agent.model.doGenerate(call);
  const step = emptyStep();
  step.usage = usageOf(result.usage);
  step.finishReason = result.finishReason.unified;
  if (result.response?.modelId) step.responseModel = result.response.modelId;
  for (const part of result.content) {
    if (part.type === 'reasoning') appendReasoning(turn, options, step, newBlock(step, part.providerMetadata), part.text);
    else if (part.type === 'text') appendText(turn, options, step, part.text);
    else if (part.type === 'tool-call' || part.type === 'tool-result') addToolCall(turn, options, step, part);
  }
  return step;
}

function detailsOf(step: ModelStep): ModelCallDetails {
  const details: ModelCallDetails = {};
  if (step.finishReason) details.finishReason = step.finishReason;
  if (step.responseModel) details.responseModel = step.responseModel;
  return details;
}

/** One attempt, with its own usage event: each attempt is billed, or fails, on its own. */
async function attemptCall(turn: TurnContext, options: CallModelOptions, call: LanguageModelV3CallOptions, attempt: ModelAttempt): Promise<ModelStep> {
  const { agent, depth } = options;
  const started = performance.now();
  const usage = (outcome: ModelCallOutcome, figures: UsageFigures, details: ModelCallDetails): void =>
    turn.emit(agent.name, depth, { type: 'usage', provider: agent.model.provider, model: agent.model.modelId, latencyMs: performance.now() - started, outcome, ...figures, ...details });
  try {
    const step = await (turn.stream ? streamStep(turn, options, call, attempt) : generateStep(turn, options, call));
    usage('ok', step.usage, detailsOf(step));
    return step;
  } catch (error) {
    usage(turn.signal.aborted ? 'cancelled' : 'error', usageOf(undefined), { error: errorMessage(error) });
    throw error;
  }
}

export async function callModel(turn: TurnContext, options: CallModelOptions): Promise<ModelStep> {
  const { agent, depth } = options;
  const call: LanguageModelV3CallOptions = {
    ...agent.settings,
    prompt: options.prompt,
    responseFormat: options.responseFormat,
  };
  if (options.withTools && agent.toolSpecs.length > 0) call.tools = agent.toolSpecs;
  return withRetries(turn, agent, depth, (attempt) => attemptCall(turn, options, { ...call, abortSignal: attempt.signal }, attempt));
}
