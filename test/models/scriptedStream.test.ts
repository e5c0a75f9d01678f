import type { LanguageModelV3CallOptions, LanguageModelV3Content, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import type { ModelContext } from '../../src/models/context.js';
import { createScriptedModel } from '../../src/models/scripted/createScriptedModel.js';
import { chunkWords } from '../../src/models/scripted/stream.js';
import { delegationTools, readStream, userPrompt } from './helpers.js';

/** Reassembles stream parts into the content doGenerate would return. */
function contentOf(parts: readonly LanguageModelV3StreamPart[]): LanguageModelV3Content[] {
  const content: LanguageModelV3Content[] = [];
  for (const part of parts) {
    if (part.type === 'reasoning-start') content.push({ type: 'reasoning', text: '' });
    else if (part.type === 'text-start') content.push({ type: 'text', text: '' });
    else if (part.type === 'reasoning-delta' || part.type === 'text-delta') {
      const last = content.at(-1);
      if (last?.type === 'reasoning' || last?.type === 'text') last.text += part.delta;
    } else if (part.type === 'tool-call') content.push(part);
  }
  return content;
}

const SENTENCE = 'The quick brown fox jumps over the lazy dog near the river bank today.';

describe('scripted model streaming', () => {
  it.each<[string, ModelContext, LanguageModelV3CallOptions]>([
    ['a leaf answer', { agentName: 'Advocate', subagents: [] }, { prompt: userPrompt(SENTENCE) }],
    [
      'a delegation call',
      { agentName: 'Moderator', subagents: [{ name: 'Advocate', description: 'for' }] },
      { prompt: userPrompt(SENTENCE), tools: delegationTools(['Advocate']) },
    ],
    ['thinking and a reply', { agentName: 'A', subagents: [], script: [{ thinking: SENTENCE, reply: SENTENCE }] }, { prompt: userPrompt('x') }],
    [
      'thinking and tool calls',
      { agentName: 'A', subagents: [], script: [{ thinking: 'Let me add.', tool_calls: [{ tool: 'calculator', args: { expression: '1+1' } }] }] },
      { prompt: userPrompt('x') },
    ],
  ])('yields the same content, usage and finish reason as doGenerate for %s', async (_name, context, options) => {
    const generated = await createScriptedModel(context).doGenerate(options);
    const parts = await readStream(createScriptedModel(context), options);
    const finish = parts.at(-1);
    expect(contentOf(parts)).toEqual(generated.content);
    expect(finish).toEqual({ type: 'finish', usage: generated.usage, finishReason: generated.finishReason });
  });

  it('starts with stream-start and brackets text deltas with text-start and text-end', async () => {
    const parts = await readStream(createScriptedModel({ agentName: 'A', subagents: [], script: [{ reply: SENTENCE }] }), { prompt: userPrompt('x') });
    expect(parts.map((part) => part.type)).toEqual([
      'stream-start',
      'text-start',
      ...Array<string>(5).fill('text-delta'),
      'text-end',
      'finish',
    ]);
  });

  it('splits text on word boundaries, a few words per chunk, losslessly', () => {
    expect(chunkWords('one two three four five six seven')).toEqual(['one two three ', 'four five six ', 'seven']);
  });
});

describe('scripted model usage', () => {
  it('counts a quarter token per character of prompt and output, rounded up', async () => {
    const model = createScriptedModel({ agentName: 'A', subagents: [], script: [{ thinking: 'abcdef', reply: 'abcdefghij' }] });
    const { usage } = await model.doGenerate({ prompt: userPrompt('hello', 'sys') });
    expect(usage).toEqual({
      inputTokens: { total: 2, noCache: 2, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 4, text: 2, reasoning: 2 },
    });
  });

  it('counts tool call inputs and tool results in the prompt', async () => {
    const model = createScriptedModel({ agentName: 'A', subagents: [], script: [{ reply: 'ok' }] });
    const { usage } = await model.doGenerate({
      prompt: [
        { role: 'user', content: [{ type: 'text', text: 'abcd' }] },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 't', input: { a: 1 } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c', toolName: 't', output: { type: 'text', value: 'abcd' } }] },
      ],
    });
    expect(usage.inputTokens.total).toBe(Math.ceil((4 + '{"a":1}'.length + 4) / 4));
  });

  it('reports the same usage for the same call every time', async () => {
    const options = { prompt: userPrompt('Should we?') };
    const first = await createScriptedModel({ agentName: 'A', subagents: [] }).doGenerate(options);
    const second = await createScriptedModel({ agentName: 'A', subagents: [] }).doGenerate(options);
    expect(second.usage).toEqual(first.usage);
  });
});
