import type { JSONSchema7, LanguageModelV3CallOptions, LanguageModelV3FunctionTool, SharedV3Warning } from '@ai-sdk/provider';
import { toChatHistory } from './chatHistory.js';
import { toGbnfDocument } from './gbnfSchema.js';
import type { ChatHistoryItem, ChatModelFunctions, GbnfJsonSchema, GenerateResponseOptions } from './nodeLlamaCpp.js';

// What one call asks of the local model, worked out before the model is touched (and testable
// without it). Tools are offered in one of two ways:
// - the model may call one (toolChoice auto): node-llama-cpp's function calling, through the
//   chat template's own tool syntax; the arguments are then generated under a grammar;
// - the model must call one (toolChoice required or a named tool): the whole reply is generated
//   under a grammar that admits only {"name": <tool>, "arguments": <its schema>}.
// node-llama-cpp cannot combine function calling with a grammar, so a JSON response format is
// enforced only on calls that offer no tools.

export type Grammar = { kind: 'json' } | { kind: 'schema'; schema: GbnfJsonSchema };

export type Sampling = Pick<GenerateResponseOptions, 'maxTokens' | 'temperature' | 'topK' | 'topP' | 'seed' | 'repeatPenalty' | 'customStopTriggers'>;

export interface GenerationPlan {
  history: ChatHistoryItem[];
  /** Tools the model may call (toolChoice auto). */
  functions?: ChatModelFunctions;
  grammar?: Grammar;
  /** The grammar is a forced tool call. */
  forcedToolCall: boolean;
  sampling: Sampling;
  warnings: SharedV3Warning[];
}

function functionTools(options: LanguageModelV3CallOptions, warnings: SharedV3Warning[]): LanguageModelV3FunctionTool[] {
  const tools = options.tools ?? [];
  for (const tool of tools) {
    if (tool.type !== 'function') warnings.push({ type: 'unsupported', feature: `provider tool ${tool.name}`, details: 'Local GGUF models have no built-in tools.' });
  }
  return tools.filter((tool): tool is LanguageModelV3FunctionTool => tool.type === 'function');
}

function offeredTools(options: LanguageModelV3CallOptions, tools: LanguageModelV3FunctionTool[]): LanguageModelV3FunctionTool[] {
  const choice = options.toolChoice;
  if (choice?.type === 'none') return [];
  if (choice?.type === 'tool') return tools.filter((tool) => tool.name === choice.toolName);
  return tools;
}

function toolCallGrammar(tools: readonly LanguageModelV3FunctionTool[]): Grammar {
  const calls = tools.map((tool) => ({
    type: 'object',
    properties: { name: { const: tool.name }, arguments: toGbnfDocument(tool.inputSchema) },
  }));
  return { kind: 'schema', schema: calls.length === 1 ? calls[0]! : { oneOf: calls } };
}

function toolInstructions(tools: readonly LanguageModelV3FunctionTool[]): string {
  const lines = tools.map((tool) => `- ${tool.name}${tool.description ? `: ${tool.description}` : ''}\n  arguments: ${JSON.stringify(tool.inputSchema)}`);
  return `Call one of these tools now. Reply with only a JSON object {"name": <tool name>, "arguments": <its arguments>}.\n${lines.join('\n')}`;
}

/** Adds `text` to the first system message (templates may accept a system message only first). */
function withSystemText(history: ChatHistoryItem[], text: string): ChatHistoryItem[] {
  const first = history[0];
  if (first?.type === 'system') return [{ type: 'system', text: `${first.text}\n\n${text}` }, ...history.slice(1)];
  return [{ type: 'system', text }, ...history];
}

function responseGrammar(format: LanguageModelV3CallOptions['responseFormat']): Grammar | undefined {
  if (format?.type !== 'json') return undefined;
  return format.schema ? { kind: 'schema', schema: toGbnfDocument(format.schema as JSONSchema7) } : { kind: 'json' };
}

function samplingOf(options: LanguageModelV3CallOptions): Sampling {
  const sampling: Sampling = {
    maxTokens: options.maxOutputTokens,
    temperature: options.temperature,
    topK: options.topK,
    topP: options.topP,
    seed: options.seed,
    customStopTriggers: options.stopSequences,
  };
  if (options.presencePenalty !== undefined || options.frequencyPenalty !== undefined) {
    sampling.repeatPenalty = { presencePenalty: options.presencePenalty, frequencyPenalty: options.frequencyPenalty };
  }
  for (const key of Object.keys(sampling) as Array<keyof Sampling>) {
    if (sampling[key] === undefined) delete sampling[key];
  }
  return sampling;
}

export function planGeneration(options: LanguageModelV3CallOptions): GenerationPlan {
  const { history, warnings } = toChatHistory(options.prompt);
  const tools = offeredTools(options, functionTools(options, warnings));
  const sampling = samplingOf(options);
  const format = responseGrammar(options.responseFormat);
  const forced = options.toolChoice?.type === 'required' || options.toolChoice?.type === 'tool';

  if (tools.length > 0 && forced) {
    return { history: withSystemText(history, toolInstructions(tools)), grammar: toolCallGrammar(tools), forcedToolCall: true, sampling, warnings };
  }
  if (tools.length > 0) {
    if (format) warnings.push({ type: 'unsupported', feature: 'responseFormat', details: 'A local model enforces JSON output only on calls that offer no tools.' });
    const functions = Object.fromEntries(tools.map((tool) => [tool.name, { description: tool.description, params: toGbnfDocument(tool.inputSchema) }]));
    return { history, functions, forcedToolCall: false, sampling, warnings };
  }
  return { history, grammar: format, forcedToolCall: false, sampling, warnings };
}
