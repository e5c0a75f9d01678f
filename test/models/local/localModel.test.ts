import type { LanguageModelV3CallOptions, LanguageModelV3FunctionTool, LanguageModelV3GenerateResult, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelConfigError } from '../../../src/models/errors.js';
import { createLocalModel } from '../../../src/models/local/createLocalModel.js';
import { disposeLocalModels } from '../../../src/models/local/localModelCache.js';
import { importNodeLlamaCpp } from '../../../src/models/local/nodeLlamaCpp.js';
import { providerOf, resolveModel } from '../../../src/models/resolveModel.js';
import { readStream, textOf, toolCallsOf, userPrompt } from '../helpers.js';
import { runModelTests, nodeLlamaCppInstalled, writeTinyModels, type TinyModels } from './llamaAvailable.js';
import { IN_CI } from '../../inCi.js';

// The tiny model has random weights: these tests prove loading, chat templating, grammars,
// streaming and usage, never the quality of an answer. Generation is kept to a few tokens.

const calculator: LanguageModelV3FunctionTool = {
  type: 'function',
  name: 'calculator',
  description: 'Evaluates an arithmetic expression',
  inputSchema: { type: 'object', properties: { expression: { type: 'string', minLength: 1, maxLength: 500 } }, required: ['expression'], additionalProperties: false },
};

function call(overrides: Partial<LanguageModelV3CallOptions> = {}): LanguageModelV3CallOptions {
  return { prompt: userPrompt('Hello there', 'You are a tiny test model.'), maxOutputTokens: 8, ...overrides };
}

function requestOf(result: LanguageModelV3GenerateResult): { chatWrapper: string; prompt: string } {
  return result.request?.body as { chatWrapper: string; prompt: string };
}

describe('local models without a model to run', () => {
  it('fail with the install command when node-llama-cpp is missing', async () => {
    const missing = importNodeLlamaCpp(() => import('node-llama-cpp-is-not-installed' as string));
    await expect(missing).rejects.toBeInstanceOf(ModelConfigError);
    await expect(missing).rejects.toThrow('npm install node-llama-cpp@3.21.1');
  });

  it('are named by local:<path>', () => {
    expect(providerOf('local:models/tiny.gguf')).toBe('local');
    expect(() => providerOf('local:')).toThrow(/Unknown model "local:".*local:<path-to-model.gguf>/);
  });

  it('fail at the first call, naming the path, when the file is missing', async () => {
    const model = resolveModel('local:/nonexistent/dir/model.gguf', { agentName: 'Scout', subagents: [] });
    expect(model).toMatchObject({ provider: 'local', modelId: '/nonexistent/dir/model.gguf' });
    const result = model.doGenerate(call());
    await expect(result).rejects.toBeInstanceOf(ModelConfigError);
    await expect(result).rejects.toThrow('/nonexistent/dir/model.gguf does not exist');
  });
});

describe.skipIf(!runModelTests)('local GGUF models (node-llama-cpp)', () => {
  let models: TinyModels;

  beforeAll(() => {
    models = writeTinyModels();
  });
  afterAll(async () => {
    await disposeLocalModels();
  });

  it.runIf(IN_CI)('has node-llama-cpp installed in CI', () => {
    expect(nodeLlamaCppInstalled).toBe(true);
  });

  it('loads a generated GGUF, renders its chat template and reports usage', async () => {
    const result = await createLocalModel(models.chatml).doGenerate(call());

    expect(textOf(result.content).length).toBeGreaterThan(0);
    expect(result.finishReason).toEqual({ unified: 'length', raw: 'maxTokens' });
    expect(result.usage.outputTokens.total).toBe(8);
    expect(result.usage.inputTokens.total).toBeGreaterThan(20);
    expect(requestOf(result).chatWrapper).toBe('ChatML');
    expect(requestOf(result).prompt).toContain('<|im_start|>system\nYou are a tiny test model.<|im_end|>\n<|im_start|>user\nHello there<|im_end|>\n<|im_start|>assistant\n');
  });

  it('falls back to a default chat wrapper for a model without a template', async () => {
    const result = await createLocalModel(models.plain).doGenerate(call());

    expect(textOf(result.content).length).toBeGreaterThan(0);
    expect(requestOf(result).chatWrapper).toBeTruthy();
    expect(requestOf(result).prompt).toContain('Hello there');
  });

  it('reuses the evaluated prompt of the previous call as cached input', async () => {
    const model = createLocalModel(models.chatml);
    await model.doGenerate(call());
    const again = await model.doGenerate(call());

    expect(again.usage.inputTokens.cacheRead).toBeGreaterThan(20);
    expect((again.usage.inputTokens.cacheRead ?? 0) + (again.usage.inputTokens.noCache ?? 0)).toBe(again.usage.inputTokens.total);
  });

  it('streams text deltas, then a finish with usage', async () => {
    const parts = await readStream(createLocalModel(models.chatml), call({ maxOutputTokens: 6 }));

    expect(parts[0]).toMatchObject({ type: 'stream-start' });
    const deltas = parts.flatMap((part) => (part.type === 'text-delta' ? [part.delta] : []));
    expect(deltas.length).toBeGreaterThan(0);
    expect(parts.map((part) => part.type)).toEqual(['stream-start', 'text-start', ...deltas.map(() => 'text-delta'), 'text-end', 'finish']);
    expect(parts.at(-1)).toMatchObject({ type: 'finish', usage: { outputTokens: { total: 6 } } });
  });

  it('forces a tool call whose arguments the grammar keeps to the tool schema', async () => {
    const result = await createLocalModel(models.chatml).doGenerate(call({ tools: [calculator], toolChoice: { type: 'required' }, maxOutputTokens: 64 }));

    const calls = toolCallsOf(result.content);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.toolName).toBe('calculator');
    const input = JSON.parse(calls[0]!.input) as Record<string, unknown>;
    expect(Object.keys(input)).toEqual(['expression']);
    expect(typeof input.expression).toBe('string');
    expect((input.expression as string).length).toBeGreaterThanOrEqual(1);
    expect(result.finishReason.unified).toBe('tool-calls');
    expect(requestOf(result).prompt).toContain('- calculator: Evaluates an arithmetic expression');
  });

  it('streams a forced tool call as one tool-call part', async () => {
    const parts = await readStream(createLocalModel(models.chatml), call({ tools: [calculator], toolChoice: { type: 'tool', toolName: 'calculator' }, maxOutputTokens: 64 }));

    expect(parts.filter((part) => part.type === 'text-delta')).toEqual([]);
    const toolCall = parts.find((part) => part.type === 'tool-call');
    expect(toolCall).toMatchObject({ type: 'tool-call', toolName: 'calculator', toolCallId: expect.stringMatching(/^call_/) });
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'tool-calls' } });
  });

  it('documents offered tools through the chat template when the model may choose', async () => {
    const result = await createLocalModel(models.chatml).doGenerate(call({ tools: [calculator] }));

    expect(requestOf(result).prompt).toContain('calculator');
    for (const toolCall of toolCallsOf(result.content)) expect(() => JSON.parse(toolCall.input) as unknown).not.toThrow();
  });

  it('keeps a JSON response format to its schema', async () => {
    const schema = { type: 'object' as const, properties: { verdict: { type: 'string' as const }, score: { type: 'integer' as const } }, required: ['verdict', 'score'] };
    const result = await createLocalModel(models.chatml).doGenerate(call({ responseFormat: { type: 'json', schema }, maxOutputTokens: 64 }));

    const value = JSON.parse(textOf(result.content)) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['verdict', 'score']);
    expect(Number.isInteger(value.score)).toBe(true);
  });

  it('stops at a stop sequence', async () => {
    // The tiny model favours `"`, so it is generated within the first tokens.
    const result = await createLocalModel(models.chatml).doGenerate(call({ stopSequences: ['"'], maxOutputTokens: 32 }));

    expect(result.finishReason).toEqual({ unified: 'stop', raw: 'customStopTrigger' });
    expect(textOf(result.content)).not.toContain('"');
  });

  it('stops at the end of the context when no token limit is set', async () => {
    // The tiny model never ends its turn, so it generates until the context is full.
    const result = await createLocalModel(models.small).doGenerate(call({ maxOutputTokens: undefined }));

    expect(result.finishReason.unified).toBe('length');
    const used = (result.usage.inputTokens.total ?? 0) + (result.usage.outputTokens.total ?? 0);
    expect(used).toBeGreaterThan(200);
    expect(used).toBeLessThanOrEqual(256);
  });

  it('honours an abort signal', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stopped by the test'));
    await expect(createLocalModel(models.chatml).doGenerate(call({ abortSignal: controller.signal }))).rejects.toThrow('stopped by the test');

    const midway = new AbortController();
    const { stream } = await createLocalModel(models.chatml).doStream(call({ abortSignal: midway.signal, maxOutputTokens: 2000 }));
    const parts: LanguageModelV3StreamPart[] = [];
    for await (const part of stream) {
      parts.push(part);
      if (part.type === 'text-delta') midway.abort(new Error('stopped midway'));
    }
    expect(parts.at(-1)).toMatchObject({ type: 'error', error: new Error('stopped midway') });
    expect(parts.filter((part) => part.type === 'text-delta').length).toBeLessThan(50);
  });

  it('fails with a ModelConfigError for a file that is not a GGUF model', async () => {
    const result = createLocalModel(new URL(import.meta.url).pathname).doGenerate(call());
    await expect(result).rejects.toBeInstanceOf(ModelConfigError);
    await expect(result).rejects.toThrow(/Could not load .*localModel\.test\.ts as a GGUF model/);
  });
});
