import type { LanguageModelV3, LanguageModelV3Content, LanguageModelV3StreamPart, LanguageModelV3Usage } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { createThinkTagSplitter, splitThinkTags, withThinkTagReasoning, type ThinkSegment } from '../../src/models/thinkTags.js';
import { readStream, userPrompt } from './helpers.js';

const USAGE: LanguageModelV3Usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

function model(content: LanguageModelV3Content[], parts: LanguageModelV3StreamPart[]): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: 'ollama.responses',
    modelId: 'qwen3:8b',
    supportedUrls: {},
    doGenerate: () => Promise.resolve({ content, finishReason: { unified: 'stop', raw: 'stop' }, usage: USAGE, warnings: [] }),
    doStream: () =>
      Promise.resolve({
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      }),
  };
}

function streamed(deltas: readonly string[]): ThinkSegment[] {
  const splitter = createThinkTagSplitter();
  const segments = [...deltas.flatMap((delta) => splitter.push(delta)), ...splitter.end()];
  // Merge neighbours of one kind, as a reader of the stream would see them.
  return segments.reduce<ThinkSegment[]>((merged, segment) => {
    const last = merged[merged.length - 1];
    if (last?.kind === segment.kind) last.text += segment.text;
    else merged.push({ ...segment });
    return merged;
  }, []);
}

describe('splitThinkTags', () => {
  it('moves a think block to reasoning and drops the line breaks around its tags', () => {
    expect(splitThinkTags('<think>\nThe user wants a greeting.\n</think>\n\nHello!')).toEqual([
      { kind: 'reasoning', text: 'The user wants a greeting.' },
      { kind: 'text', text: 'Hello!' },
    ]);
  });

  it('leaves an answer without tags as it is', () => {
    expect(splitThinkTags('Just an answer, with <b>markup</b>.')).toEqual([{ kind: 'text', text: 'Just an answer, with <b>markup</b>.' }]);
  });

  it('drops the empty think block a model writes when thinking is off', () => {
    expect(splitThinkTags('<think>\n\n</think>\n\nHello!')).toEqual([{ kind: 'text', text: 'Hello!' }]);
  });

  it('keeps an unclosed think block as reasoning', () => {
    expect(splitThinkTags('<think>Still thinking when the tokens ran out')).toEqual([{ kind: 'reasoning', text: 'Still thinking when the tokens ran out' }]);
  });

  it('splits every block when there are several', () => {
    expect(splitThinkTags('<think>a</think>b<think>c</think>d')).toEqual([
      { kind: 'reasoning', text: 'a' },
      { kind: 'text', text: 'b' },
      { kind: 'reasoning', text: 'c' },
      { kind: 'text', text: 'd' },
    ]);
  });
});

describe('createThinkTagSplitter', () => {
  it('recognises tags cut across deltas', () => {
    expect(streamed(['<th', 'ink>\npl', 'an\n</', 'thi', 'nk>\n\nans', 'wer'])).toEqual([
      { kind: 'reasoning', text: 'plan' },
      { kind: 'text', text: 'answer' },
    ]);
  });

  it('releases text as it arrives, holding back only what could start a tag', () => {
    const splitter = createThinkTagSplitter();

    expect(splitter.push('Hello')).toEqual([{ kind: 'text', text: 'Hello' }]);
    expect(splitter.push(' world <')).toEqual([{ kind: 'text', text: ' world' }]);
    expect(splitter.push('b>!')).toEqual([{ kind: 'text', text: ' <b>!' }]);
    expect(splitter.end()).toEqual([]);
  });
});

describe('withThinkTagReasoning', () => {
  it('turns a generated think block into a reasoning part before the text, leaving other parts alone', async () => {
    const call: LanguageModelV3Content = { type: 'tool-call', toolCallId: 'c1', toolName: 'calculator', input: '{"expression":"6*7"}' };
    const wrapped = withThinkTagReasoning(model([{ type: 'text', text: '<think>Use the tool.</think>\n\nOne moment.' }, call], []));

    const result = await wrapped.doGenerate({ prompt: userPrompt('6*7?') });

    expect(result.content).toEqual([{ type: 'reasoning', text: 'Use the tool.' }, { type: 'text', text: 'One moment.' }, call]);
  });

  it('turns a streamed think block into reasoning parts, with tags cut across deltas', async () => {
    const finish: LanguageModelV3StreamPart = { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: USAGE };
    const wrapped = withThinkTagReasoning(
      model(
        [],
        [
          { type: 'stream-start', warnings: [] },
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: '<think>\nPlan' },
          { type: 'text-delta', id: 't', delta: ' it.\n</th' },
          { type: 'text-delta', id: 't', delta: 'ink>\n\nDone' },
          { type: 'text-delta', id: 't', delta: '.' },
          { type: 'text-end', id: 't' },
          finish,
        ],
      ),
    );

    const parts = await readStream(wrapped, { prompt: userPrompt('Plan') });

    expect(parts).toEqual([
      { type: 'stream-start', warnings: [] },
      { type: 'reasoning-start', id: 't:0' },
      { type: 'reasoning-delta', id: 't:0', delta: 'Plan' },
      { type: 'reasoning-delta', id: 't:0', delta: ' it.' },
      { type: 'reasoning-end', id: 't:0' },
      { type: 'text-start', id: 't:1' },
      { type: 'text-delta', id: 't:1', delta: 'Done' },
      { type: 'text-delta', id: 't:1', delta: '.' },
      { type: 'text-end', id: 't:1' },
      finish,
    ]);
  });

  it('closes a text block the provider never ended before the stream finishes', async () => {
    const finish: LanguageModelV3StreamPart = { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: USAGE };
    const wrapped = withThinkTagReasoning(model([], [{ type: 'text-delta', id: 't', delta: '<think>Hmm' }, finish]));

    const parts = await readStream(wrapped, { prompt: userPrompt('Plan') });

    expect(parts).toEqual([
      { type: 'reasoning-start', id: 't:0' },
      { type: 'reasoning-delta', id: 't:0', delta: 'Hmm' },
      { type: 'reasoning-end', id: 't:0' },
      finish,
    ]);
  });
});
