import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Message,
  LanguageModelV3StreamPart,
  LanguageModelV3ToolCall,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import type { CompiledAgent } from './compileSyndicate.js';
import type { ModelCallOutcome, UsageFigures } from './events.js';
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
}

function parseArguments(raw: string): ParsedArguments {
  if (raw.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch (error) {
    return { ok: false, problem: `arguments are not valid JSON (${(error as Error).message})` };
  }
}

export interface ModelStep {
  text: string;
  reasoning: string;
  toolCalls: ModelToolCall[];
  usage: UsageFigures;
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

function appendReasoning(turn: TurnContext, options: CallModelOptions, step: ModelStep, delta: string): void {
  step.reasoning += delta;
  turn.emit(options.agent.name, options.depth, { type: 'thinking-delta', delta });
}

function addToolCall(step: ModelStep, part: LanguageModelV3ToolCall): void {
  step.toolCalls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input, args: parseArguments(part.input) });
}

function emptyStep(): ModelStep {
  return { text: '', reasoning: '', toolCalls: [], usage: usageOf(undefined) };
}

async function streamStep(turn: TurnContext, options: CallModelOptions, call: LanguageModelV3CallOptions): Promise<ModelStep> {
  const { stream } = await options.agent.model.doStream(call);
  const reader = stream.getReader();
  const step = emptyStep();
  while (true) {
    const { done, value } = await reader.read();
    if (done) return step;
    const part: LanguageModelV3StreamPart = value;
    switch (part.type) {
      case 'text-delta':
        appendText(turn, options, step, part.delta);
        break;
      case 'reasoning-delta':
        appendReasoning(turn, options, step, part.delta);
        break;
      case 'tool-call':
        addToolCall(step, part);
        break;
      case 'finish':
        step.usage = usageOf(part.usage);
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
  for (const part of result.content) {
    if (part.type === 'reasoning') appendReasoning(turn, options, step, part.text);
    else if (part.type === 'text') appendText(turn, options, step, part.text);
    else if (part.type === 'tool-call') addToolCall(step, part);
  }
  return step;
}

export async function callModel(turn: TurnContext, options: CallModelOptions): Promise<ModelStep> {
  const { agent, depth } = options;
  const call: LanguageModelV3CallOptions = {
    ...agent.settings,
    prompt: options.prompt,
    abortSignal: turn.signal,
    responseFormat: options.responseFormat,
  };
  if (options.withTools && agent.toolSpecs.length > 0) call.tools = agent.toolSpecs;
  const started = performance.now();
  const usage = (outcome: ModelCallOutcome, figures: UsageFigures): void =>
    turn.emit(agent.name, depth, { type: 'usage', provider: agent.model.provider, model: agent.model.modelId, latencyMs: performance.now() - started, outcome, ...figures });
  try {
    const step = await (turn.stream ? streamStep(turn, options, call) : generateStep(turn, options, call));
    usage('ok', step.usage);
    return step;
  } catch (error) {
    usage(turn.signal.aborted ? 'cancelled' : 'error', usageOf(undefined));
    throw error;
  }
}
