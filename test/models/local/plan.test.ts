import type { LanguageModelV3CallOptions, LanguageModelV3FunctionTool } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { toChatHistory } from '../../../src/models/local/chatHistory.js';
import { planGeneration } from '../../../src/models/local/plan.js';
import { userPrompt } from '../helpers.js';

const calculator: LanguageModelV3FunctionTool = {
  type: 'function',
  name: 'calculator',
  description: 'Evaluates arithmetic',
  inputSchema: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'], additionalProperties: false },
};

function call(overrides: Partial<LanguageModelV3CallOptions> = {}): LanguageModelV3CallOptions {
  return { prompt: userPrompt('What is 2+2?'), ...overrides };
}

describe('toChatHistory', () => {
  it('maps system, user and assistant messages and opens a model response', () => {
    const { history, warnings } = toChatHistory([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      { role: 'assistant', content: [{ type: 'reasoning', text: 'hmm' }, { type: 'text', text: 'Hello!' }] },
      { role: 'user', content: [{ type: 'text', text: 'Again' }] },
    ]);
    expect(history).toEqual([
      { type: 'system', text: 'Be brief.' },
      { type: 'user', text: 'Hi' },
      { type: 'model', response: ['Hello!'] },
      { type: 'user', text: 'Again' },
      { type: 'model', response: [] },
    ]);
    expect(warnings).toEqual([]);
  });

  it('writes each tool result into the call it answers and continues that response', () => {
    const { history } = toChatHistory([
      ...userPrompt('compute'),
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me check.' },
          { type: 'tool-call', toolCallId: 'a', toolName: 'calculator', input: { expression: '1+1' } },
          { type: 'tool-call', toolCallId: 'b', toolName: 'calculator', input: { expression: '2*3' } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'b', toolName: 'calculator', output: { type: 'json', value: { result: 6 } } },
          { type: 'tool-result', toolCallId: 'a', toolName: 'calculator', output: { type: 'error-text', value: 'bad' } },
        ],
      },
    ]);
    expect(history.at(-1)).toEqual({
      type: 'model',
      response: [
        'Let me check.',
        { type: 'functionCall', name: 'calculator', params: { expression: '1+1' }, result: 'bad' },
        { type: 'functionCall', name: 'calculator', params: { expression: '2*3' }, result: { result: 6 } },
      ],
    });
  });

  it('warns about parts a local model cannot read', () => {
    const { history, warnings } = toChatHistory([
      { role: 'user', content: [{ type: 'text', text: 'Look' }, { type: 'file', mediaType: 'image/png', data: 'AAAA' }] },
    ]);
    expect(history[0]).toEqual({ type: 'user', text: 'Look' });
    expect(warnings).toEqual([expect.objectContaining({ type: 'unsupported', feature: 'file parts in the prompt' })]);
  });
});

describe('planGeneration', () => {
  it('offers tools through function calling when the model may choose', () => {
    const plan = planGeneration(call({ tools: [calculator] }));
    expect(plan.functions).toEqual({ calculator: { description: 'Evaluates arithmetic', params: { type: 'object', properties: { expression: { type: 'string' } } } } });
    expect(plan.grammar).toBeUndefined();
    expect(plan.forcedToolCall).toBe(false);
  });

  it('forces a tool call with a grammar over {name, arguments} and describes the tools', () => {
    const plan = planGeneration(call({ tools: [calculator], toolChoice: { type: 'required' } }));
    expect(plan.forcedToolCall).toBe(true);
    expect(plan.functions).toBeUndefined();
    expect(plan.grammar).toEqual({
      kind: 'schema',
      schema: { type: 'object', properties: { name: { const: 'calculator' }, arguments: { type: 'object', properties: { expression: { type: 'string' } } } } },
    });
    expect(plan.history[0]).toMatchObject({ type: 'system', text: expect.stringContaining('- calculator: Evaluates arithmetic') });
  });

  it('offers only the named tool, and none for toolChoice none', () => {
    const other: LanguageModelV3FunctionTool = { ...calculator, name: 'other' };
    const named = planGeneration(call({ tools: [calculator, other], toolChoice: { type: 'tool', toolName: 'other' } }));
    expect(JSON.stringify(named.grammar)).not.toContain('calculator');
    const none = planGeneration(call({ tools: [calculator], toolChoice: { type: 'none' } }));
    expect(none.functions).toBeUndefined();
    expect(none.grammar).toBeUndefined();
  });

  it('enforces a JSON response format with a grammar, but not next to tools', () => {
    const schema = { type: 'object' as const, properties: { verdict: { type: 'string' as const } } };
    expect(planGeneration(call({ responseFormat: { type: 'json', schema } })).grammar).toEqual({ kind: 'schema', schema: { type: 'object', properties: { verdict: { type: 'string' } } } });
    expect(planGeneration(call({ responseFormat: { type: 'json' } })).grammar).toEqual({ kind: 'json' });
    const withTools = planGeneration(call({ responseFormat: { type: 'json', schema }, tools: [calculator] }));
    expect(withTools.grammar).toBeUndefined();
    expect(withTools.warnings).toEqual([expect.objectContaining({ type: 'unsupported', feature: 'responseFormat' })]);
  });

  it('passes sampling settings under node-llama-cpp names, leaving unset ones out', () => {
    const plan = planGeneration(call({ maxOutputTokens: 12, temperature: 0.7, topK: 40, topP: 0.9, seed: 7, stopSequences: ['END'], frequencyPenalty: 0.2 }));
    expect(plan.sampling).toEqual({
      maxTokens: 12,
      temperature: 0.7,
      topK: 40,
      topP: 0.9,
      seed: 7,
      customStopTriggers: ['END'],
      repeatPenalty: { presencePenalty: undefined, frequencyPenalty: 0.2 },
    });
    expect(planGeneration(call()).sampling).toEqual({});
  });
});
