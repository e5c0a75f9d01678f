import { Role, type Message, type Part } from '@a2a-js/sdk';

// Building and reading A2A message parts. The generated types spell every field out, so these
// helpers keep the rest of the face free of empty defaults.

export function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}

export function agentMessage(text: string, taskId: string, contextId: string): Message {
  return {
    messageId: crypto.randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** The text a turn runs on: text parts as written, data parts as JSON; undefined when there is neither. */
export function inputTextOf(message: Message): string | undefined {
  const pieces: string[] = [];
  for (const part of message.parts) {
    const content = part.content;
    if (content?.$case === 'text') pieces.push(content.value);
    else if (content?.$case === 'data') pieces.push(JSON.stringify(content.value));
  }
  const text = pieces.join('\n').trim();
  return text === '' ? undefined : text;
}
