import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { finishReasonOf, usageOf, type ScriptedReply } from './reply.js';

const WORDS_PER_CHUNK = 3;
const SPACE = 32;
const NEWLINE = 10;

/** Splits after every few words; the chunks concatenate back to `text` exactly. */
export function chunkWords(text: string): string[] {
  const chunks: string[] = [];
  let start = 0;
  let words = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code === SPACE || code === NEWLINE) && ++words === WORDS_PER_CHUNK) {
      chunks.push(text.slice(start, i + 1));
      start = i + 1;
      words = 0;
    }
  }
  if (start < text.length) chunks.push(text.slice(start));
  return chunks;
}

export function toStreamParts(reply: ScriptedReply, promptChars: number): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  if (reply.reasoning !== undefined) {
    parts.push({ type: 'reasoning-start', id: 'reasoning-0' });
    for (const delta of chunkWords(reply.reasoning)) parts.push({ type: 'reasoning-delta', id: 'reasoning-0', delta });
    parts.push({ type: 'reasoning-end', id: 'reasoning-0' });
  }
  if (reply.text !== undefined) {
    parts.push({ type: 'text-start', id: 'text-0' });
    for (const delta of chunkWords(reply.text)) parts.push({ type: 'text-delta', id: 'text-0', delta });
    parts.push({ type: 'text-end', id: 'text-0' });
  }
  if (reply.toolCalls) {
    for (const call of reply.toolCalls) parts.push({ type: 'tool-call', ...call });
  }
  parts.push({ type: 'finish', usage: usageOf(promptChars, reply), finishReason: finishReasonOf(reply) });
  return parts;
}

export function streamOf<T>(items: readonly T[]): ReadableStream<T> {
  return new ReadableStream<T>({
    start(controller) {
      for (const item of items) controller.enqueue(item);
      controller.close();
    },
  });
}
