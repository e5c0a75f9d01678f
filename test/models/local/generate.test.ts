import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { generate } from '../../../src/models/local/generate.js';
import type { LocalModel } from '../../../src/models/local/localModelCache.js';
import type { GenerateResponseOptions, LlamaChat, ResponseItem } from '../../../src/models/local/nodeLlamaCpp.js';
import { planGeneration } from '../../../src/models/local/plan.js';
import { streamWriter } from '../../../src/models/local/streamWriter.js';
import { userPrompt } from '../helpers.js';

// generate() against a stand-in for node-llama-cpp's chat, for what a tiny random model cannot
// show: a chat wrapper that marks a chain of thought (Qwen's or DeepSeek's <think>, for one).

const THOUGHT = { type: 'segment', segmentType: 'thought', text: 'Two and two.' } as const;

function fakeModel(seen: GenerateResponseOptions[]): LocalModel {
  const tokenize = (text: string): number[] => [...text].map((char) => char.charCodeAt(0));
  let output = 0;
  const chat: LlamaChat = {
    chatWrapper: { wrapperName: 'Fake', generateContextState: () => ({ contextText: { toString: () => 'PROMPT', tokenize: () => tokenize('PROMPT') } }) },
    sequence: { contextTokens: tokenize('PRO'), tokenMeter: { getState: () => ({ usedInputTokens: 0, usedOutputTokens: output }) } },
    generateResponse(_history, options) {
      seen.push(options);
      options.onResponseChunk?.({ type: 'segment', segmentType: 'thought', text: THOUGHT.text });
      options.onResponseChunk?.({ type: undefined, text: 'Four.' });
      output += 5;
      const fullResponse: ResponseItem[] = [THOUGHT, 'Four.'];
      return Promise.resolve({ response: 'Four.', fullResponse, metadata: { stopReason: 'eogToken' } });
    },
  };
  return {
    path: '/fake.gguf',
    model: { tokenizer: tokenize, createContext: () => Promise.reject(new Error('unused')), dispose: () => Promise.resolve() },
    chat,
    contextSize: 100,
    grammar: () => Promise.reject(new Error('unused')),
    exclusive: (task) => task(),
  };
}

describe('generate', () => {
  it('keeps a chain of thought apart from the text, and counts tokens', async () => {
    const seen: GenerateResponseOptions[] = [];
    const generation = await generate(fakeModel(seen), planGeneration({ prompt: userPrompt('2+2?') }), undefined);

    expect(generation).toMatchObject({ text: 'Four.', reasoning: 'Two and two.', toolCalls: [], finishReason: { unified: 'stop', raw: 'eogToken' } });
    expect(generation.usage.inputTokens).toEqual({ total: 6, noCache: 3, cacheRead: 3, cacheWrite: undefined });
    expect(generation.usage.outputTokens.total).toBe(5);
    // No token limit was asked for: the room left in the context is.
    expect(seen[0]?.maxTokens).toBe(94);
  });

  it('streams reasoning and text as separate blocks', async () => {
    const parts: LanguageModelV3StreamPart[] = [];
    const writer = streamWriter((part) => parts.push(part));
    await generate(fakeModel([]), planGeneration({ prompt: userPrompt('2+2?') }), undefined, writer);
    writer.close();

    expect(parts).toEqual([
      { type: 'reasoning-start', id: 'reasoning-0' },
      { type: 'reasoning-delta', id: 'reasoning-0', delta: 'Two and two.' },
      { type: 'text-start', id: 'text-0' },
      { type: 'text-delta', id: 'text-0', delta: 'Four.' },
      { type: 'reasoning-end', id: 'reasoning-0' },
      { type: 'text-end', id: 'text-0' },
    ]);
  });
});
