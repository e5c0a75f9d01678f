import type { LanguageModelV3 } from '@ai-sdk/provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disposeLocalModels } from '../../../src/models/local/localModelCache.js';
import { resolveModel } from '../../../src/models/resolveModel.js';
import type { CompileOptions } from '../../../src/runtime/compileSyndicate.js';
import { agent, collect, compile, ofType, turnEnd } from '../../runtime/fixtures.js';
import { runModelTests, writeTinyModels, type TinyModels } from './llamaAvailable.js';

// A whole turn through the runtime on a generated GGUF model (random weights: the text is
// gibberish; what counts is that it arrives, with its usage, and that tool calls work).

/** The runtime lets the model choose; this resolver makes the first call of each agent call a tool. */
function forceFirstToolCall(): NonNullable<CompileOptions['resolveModel']> {
  return (id, context, env) => {
    const model = resolveModel(id, context, env);
    let calls = 0;
    const forced: LanguageModelV3 = {
      ...model,
      doGenerate: (options) => model.doGenerate(calls++ === 0 ? { ...options, toolChoice: { type: 'required' } } : options),
      doStream: (options) => model.doStream(calls++ === 0 ? { ...options, toolChoice: { type: 'required' } } : options),
    };
    return forced;
  };
}

describe.skipIf(!runModelTests)('a turn on a local GGUF model', () => {
  let models: TinyModels;

  beforeAll(() => {
    models = writeTinyModels();
  });
  afterAll(async () => {
    await disposeLocalModels();
  });

  it.each([true, false])('answers with text and one usage event (stream: %s)', async (stream) => {
    const root = agent('Scout', { model: `local:${models.chatml}`, generateContentConfig: { maxOutputTokens: 6 } });

    const events = await collect(compile(root), { input: 'Say something', stream });

    expect(turnEnd(events).status).toBe('completed');
    expect(ofType(events, 'message')[0]?.text.length).toBeGreaterThan(0);
    expect(ofType(events, 'text-delta').length).toBeGreaterThan(0);
    const usage = ofType(events, 'usage');
    expect(usage).toHaveLength(1);
    expect(usage[0]).toMatchObject({ provider: 'local', model: models.chatml, outcome: 'ok', outputTokens: 6 });
    expect(usage[0]?.inputTokens).toBeGreaterThan(10);
  });

  it('runs a grammar-constrained calculator call and feeds its result back', async () => {
    // The tiny model spends a token per character: 48 go to the JSON around the expression.
    const root = agent('Quartermaster', { model: `local:${models.chatml}`, tools: ['calculator'], generateContentConfig: { maxOutputTokens: 96 } });

    const events = await collect(compile(root, { resolveModel: forceFirstToolCall() }), { input: 'What is 4800 / 12?' });

    const call = ofType(events, 'tool-call')[0];
    expect(call?.tool).toBe('calculator');
    expect(call?.input).toEqual({ expression: expect.any(String) });
    // Random weights rarely write valid arithmetic: a result or the calculator's error, either way answered.
    const result = ofType(events, 'tool-result')[0];
    expect(result).toMatchObject({ tool: 'calculator', callId: call?.callId });
    expect(ofType(events, 'usage')).toHaveLength(2);
    expect(turnEnd(events).status).toBe('completed');
  });
});
