import type { LanguageModelV3Message, LanguageModelV3Prompt, LanguageModelV3ToolResultOutput } from '@ai-sdk/provider';

/** What the scripted model reads from a prompt, gathered in one pass. */
export interface PromptView {
  /** Text of the last message: a user's text or the last tool result. Script steps match against it. */
  latestInput: string;
  /** Text of the last user message. */
  userText: string;
  /** Tools called since the last user message. */
  called: Set<string>;
  /** Result text per tool name since the last user message. */
  results: Map<string, string>;
  /** Characters in the whole prompt, for usage figures. */
  chars: number;
}

function toolOutputText(output: LanguageModelV3ToolResultOutput): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      return typeof output.value === 'string' ? output.value : JSON.stringify(output.value);
    case 'execution-denied':
      return output.reason ?? 'execution denied';
    case 'content':
      return output.value.map((item) => (item.type === 'text' ? item.text : '')).join('');
  }
}

function inputChars(input: unknown): number {
  return typeof input === 'string' ? input.length : (JSON.stringify(input)?.length ?? 0);
}

function messageText(message: LanguageModelV3Message | undefined): string {
  if (message === undefined) return '';
  if (message.role === 'system') return message.content;
  let text = '';
  for (const part of message.content) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'tool-result') text = toolOutputText(part.output);
  }
  return text;
}

export function readPrompt(prompt: LanguageModelV3Prompt): PromptView {
  let lastUser = prompt.length - 1;
  while (lastUser >= 0 && prompt[lastUser]!.role !== 'user') lastUser--;
  const called = new Set<string>();
  const results = new Map<string, string>();
  let chars = 0;
  for (let i = 0; i < prompt.length; i++) {
    const message = prompt[i]!;
    if (message.role === 'system') {
      chars += message.content.length;
      continue;
    }
    const recent = i > lastUser;
    for (const part of message.content) {
      if (part.type === 'text' || part.type === 'reasoning') {
        chars += part.text.length;
      } else if (part.type === 'tool-call') {
        chars += inputChars(part.input);
        if (recent) called.add(part.toolName);
      } else if (part.type === 'tool-result') {
        const text = toolOutputText(part.output);
        chars += text.length;
        if (recent) results.set(part.toolName, text);
      }
    }
  }
  return { latestInput: messageText(prompt.at(-1)), userText: messageText(prompt[lastUser]), called, results, chars };
}
