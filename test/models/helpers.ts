import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FunctionTool,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';

export function userPrompt(text: string, system = 'You are helpful.'): LanguageModelV3Prompt {
  return [
    { role: 'system', content: system },
    { role: 'user', content: [{ type: 'text', text }] },
  ];
}

export function delegationTools(names: readonly string[]): LanguageModelV3FunctionTool[] {
  return names.map((name) => ({
    type: 'function',
    name,
    description: `Ask ${name}`,
    inputSchema: { type: 'object', properties: { request: { type: 'string' } }, required: ['request'] },
  }));
}

export function textOf(content: readonly LanguageModelV3Content[]): string {
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

export function toolCallsOf(content: readonly LanguageModelV3Content[]): Array<{ toolCallId: string; toolName: string; input: string }> {
  return content.flatMap((part) => (part.type === 'tool-call' ? [{ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input }] : []));
}

/** Appends the assistant's tool calls and a tool message answering each, as the AI SDK does between steps. */
export function appendToolRound(
  prompt: LanguageModelV3Prompt,
  content: readonly LanguageModelV3Content[],
  answer: (toolName: string, input: unknown) => string,
): void {
  const calls = toolCallsOf(content);
  prompt.push({
    role: 'assistant',
    content: calls.map((call) => ({ type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName, input: JSON.parse(call.input) })),
  });
  prompt.push({
    role: 'tool',
    content: calls.map((call) => ({
      type: 'tool-result',
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output: { type: 'text', value: answer(call.toolName, JSON.parse(call.input)) },
    })),
  });
}

export async function readStream(model: LanguageModelV3, options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamPart[]> {
  const { stream } = await model.doStream(options);
  const parts: LanguageModelV3StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}
