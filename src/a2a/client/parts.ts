import { Role, TaskState, taskStateToJSON, type Message, type Part } from '@a2a-js/sdk';
import { textPart } from '../messages.js';

// Reading a remote agent's parts as the text our agents work with, and writing our request.

/** Text parts as written, data parts as JSON, files by name: a delegation result is text. */
export function textOfParts(parts: readonly Part[]): string {
  return parts
    .map((part) => {
      const content = part.content;
      if (content === undefined) return '';
      if (content.$case === 'text') return content.value;
      if (content.$case === 'data') return JSON.stringify(content.value);
      return `[file: ${part.filename || (content.$case === 'url' ? content.value : part.mediaType || 'unnamed')}]`;
    })
    .filter((text) => text !== '')
    .join('\n');
}

export function textOfMessage(message: Message | undefined): string {
  return message ? textOfParts(message.parts).trim() : '';
}

/** Empty ids start a new context / task: the remote agent creates them. */
export function userMessage(text: string, contextId: string, taskId: string): Message {
  return { messageId: crypto.randomUUID(), contextId, taskId, role: Role.ROLE_USER, parts: [textPart(text)], metadata: undefined, extensions: [], referenceTaskIds: [] };
}

/** 'input required' for TASK_STATE_INPUT_REQUIRED. */
export function stateName(state: TaskState | undefined): string {
  if (state === undefined) return 'unknown';
  return taskStateToJSON(state).replace(/^TASK_STATE_/, '').replace(/_/g, ' ').toLowerCase();
}
