import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import type { GenerationListener } from './generate.js';

/** Turns sampled text and reasoning into stream parts, each kind one block opened on its first delta. */
export interface StreamWriter extends GenerationListener {
  /** Whether any text was written. */
  readonly wroteText: boolean;
  /** Ends the open blocks. */
  close(): void;
}

export function streamWriter(enqueue: (part: LanguageModelV3StreamPart) => void): StreamWriter {
  let text = false;
  let reasoning = false;
  return {
    get wroteText() {
      return text;
    },
    text(delta) {
      if (!delta) return;
      if (!text) enqueue({ type: 'text-start', id: 'text-0' });
      text = true;
      enqueue({ type: 'text-delta', id: 'text-0', delta });
    },
    reasoning(delta) {
      if (!delta) return;
      if (!reasoning) enqueue({ type: 'reasoning-start', id: 'reasoning-0' });
      reasoning = true;
      enqueue({ type: 'reasoning-delta', id: 'reasoning-0', delta });
    },
    close() {
      if (reasoning) enqueue({ type: 'reasoning-end', id: 'reasoning-0' });
      if (text) enqueue({ type: 'text-end', id: 'text-0' });
      reasoning = text = false;
    },
  };
}
