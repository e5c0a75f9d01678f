import type { LanguageModelV3Prompt, LanguageModelV3ToolResultOutput, SharedV3Warning } from '@ai-sdk/provider';
import type { ChatHistoryItem, ChatModelFunctionCall } from './nodeLlamaCpp.js';

// node-llama-cpp's chat history keeps a tool call and its result together inside the model's
// response, where the chat template renders them; the AI SDK prompt sends the result in a later
// `tool` message. So each result is written into the call it answers, found by its id.

export interface MappedHistory {
  history: ChatHistoryItem[];
  warnings: SharedV3Warning[];
}

function resultValue(output: LanguageModelV3ToolResultOutput): unknown {
  switch (output.type) {
    case 'text':
    case 'error-text':
    case 'json':
    case 'error-json':
      return output.value;
    case 'execution-denied':
      return `Execution denied${output.reason ? `: ${output.reason}` : ''}`;
    case 'content':
      return output.value.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
  }
}

/** The AI SDK prompt as node-llama-cpp chat history, ending with an open model response to generate into. */
export function toChatHistory(prompt: LanguageModelV3Prompt): MappedHistory {
  const history: ChatHistoryItem[] = [];
  const warnings: SharedV3Warning[] = [];
  const calls = new Map<string, ChatModelFunctionCall>();
  const skipped = new Set<string>();

  for (const message of prompt) {
    switch (message.role) {
      case 'system':
        history.push({ type: 'system', text: message.content });
        break;
      case 'user': {
        const text = message.content.flatMap((part) => {
          if (part.type === 'text') return [part.text];
          skipped.add(part.type);
          return [];
        });
        history.push({ type: 'user', text: text.join('\n') });
        break;
      }
      case 'assistant': {
        const response: Array<string | ChatModelFunctionCall> = [];
        for (const part of message.content) {
          if (part.type === 'text') response.push(part.text);
          else if (part.type === 'tool-call') {
            const call: ChatModelFunctionCall = { type: 'functionCall', name: part.toolName, params: part.input, result: undefined };
            calls.set(part.toolCallId, call);
            response.push(call);
          } else if (part.type !== 'reasoning') skipped.add(part.type);
        }
        history.push({ type: 'model', response });
        break;
      }
      case 'tool':
        for (const part of message.content) {
          if (part.type !== 'tool-result') continue;
          const call = calls.get(part.toolCallId);
          if (call) call.result = resultValue(part.output);
          else history.push({ type: 'user', text: `Result of ${part.toolName}: ${JSON.stringify(resultValue(part.output))}` });
        }
        break;
    }
  }
  if (history.at(-1)?.type !== 'model') history.push({ type: 'model', response: [] });
  for (const type of skipped) warnings.push({ type: 'unsupported', feature: `${type} parts in the prompt`, details: 'Local GGUF models read text only; these parts were left out.' });
  return { history, warnings };
}
