import { APICallError } from '@ai-sdk/provider';
import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import type { ScriptStep } from '../../src/config/schema.js';
import { ModelConfigError } from '../../src/models/errors.js';
import { createScriptedModel } from '../../src/models/scripted/createScriptedModel.js';
import { textOf, toolCallsOf, userPrompt } from './helpers.js';

function scripted(script: ScriptStep[]) {
  return createScriptedModel({ agentName: 'Helper', subagents: [], script });
}

async function reply(model: ReturnType<typeof scripted>, message: string): Promise<string> {
  return textOf((await model.doGenerate({ prompt: userPrompt(message) })).content);
}

describe('scripted model scripts', () => {
  it('answers with the reply of a step whose match is in the input, ignoring case', async () => {
    expect(await reply(scripted([{ match: 'WEATHER', reply: 'Sunny.' }]), 'How is the weather?')).toBe('Sunny.');
  });

  it('skips steps whose match is absent', async () => {
    const model = scripted([{ match: 'invoice', reply: 'Billing.' }, { reply: 'Anything.' }]);
    expect(await reply(model, 'hello')).toBe('Anything.');
  });

  it('matches a regex with its flags', async () => {
    const model = scripted([{ regex: '^order #\\d+$', flags: 'i', reply: 'Found your order.' }]);
    expect(await reply(model, 'ORDER #42')).toBe('Found your order.');
  });

  it('uses a step whose match or regex matches when both are given', async () => {
    const model = scripted([{ match: 'refund', regex: 'invoice', reply: 'Billing.', repeat: true }]);
    expect([await reply(model, 'an invoice'), await reply(model, 'a refund')]).toEqual(['Billing.', 'Billing.']);
  });

  it('ignores a g flag so that repeated matching does not depend on history', async () => {
    const model = scripted([{ regex: 'a', flags: 'g', reply: 'yes', repeat: true }]);
    expect([await reply(model, 'a'), await reply(model, 'a')]).toEqual(['yes', 'yes']);
  });

  it('uses each step once', async () => {
    const model = scripted([{ reply: 'first' }, { reply: 'second' }]);
    expect([await reply(model, 'x'), await reply(model, 'x')]).toEqual(['first', 'second']);
  });

  it('reuses a step marked repeat', async () => {
    const model = scripted([{ match: 'ping', reply: 'pong', repeat: true }]);
    expect([await reply(model, 'ping'), await reply(model, 'ping')]).toEqual(['pong', 'pong']);
  });

  it('falls back to the default behaviour when no step matches', async () => {
    expect(await reply(scripted([{ match: 'never', reply: 'no' }]), 'What now?')).toMatch(/^\[Helper\] On "What now\?"/);
  });

  it('emits one tool call per scripted call with distinct ids and JSON input', async () => {
    const model = scripted([{ tool_calls: [{ tool: 'calculator', args: { expression: '2+2' } }, { tool: 'current_time', args: {} }] }]);
    const result = await model.doGenerate({ prompt: userPrompt('compute') });
    const calls = toolCallsOf(result.content);
    expect(calls.map((call) => [call.toolName, call.input])).toEqual([
      ['calculator', '{"expression":"2+2"}'],
      ['current_time', '{}'],
    ]);
    expect(new Set(calls.map((call) => call.toolCallId)).size).toBe(2);
    expect(result.finishReason.unified).toBe('tool-calls');
  });

  it('matches a later step against the latest tool result', async () => {
    const model = scripted([{ tool_calls: [{ tool: 'calculator', args: { expression: '6*7' } }] }, { match: '42', reply: 'The answer is 42.' }]);
    const prompt: LanguageModelV3Prompt = userPrompt('compute');
    const first = await model.doGenerate({ prompt });
    const call = toolCallsOf(first.content)[0]!;
    prompt.push({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName, input: JSON.parse(call.input) }] });
    prompt.push({ role: 'tool', content: [{ type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, output: { type: 'json', value: { result: 42 } } }] });
    expect(textOf((await model.doGenerate({ prompt })).content)).toBe('The answer is 42.');
  });

  it('returns a json step as JSON text', async () => {
    expect(JSON.parse(await reply(scripted([{ json: { route: 'Billing', score: 3 } }]), 'x'))).toEqual({ route: 'Billing', score: 3 });
  });

  it('puts thinking in a reasoning part before the reply', async () => {
    const result = await scripted([{ thinking: 'Weighing it up.', reply: 'Yes.' }]).doGenerate({ prompt: userPrompt('x') });
    expect(result.content).toEqual([
      { type: 'reasoning', text: 'Weighing it up.' },
      { type: 'text', text: 'Yes.' },
    ]);
  });

  it('combines thinking with tool calls', async () => {
    const result = await scripted([{ thinking: 'Need a sum.', tool_calls: [{ tool: 'calculator', args: { expression: '1+1' } }] }]).doGenerate({
      prompt: userPrompt('x'),
    });
    expect(result.content.map((part) => part.type)).toEqual(['reasoning', 'tool-call']);
  });

  it('thinks and then answers by default when a step scripts only thinking', async () => {
    const result = await scripted([{ thinking: 'Hmm.' }]).doGenerate({ prompt: userPrompt('Why?') });
    expect(result.content[0]).toEqual({ type: 'reasoning', text: 'Hmm.' });
    expect(textOf(result.content)).toMatch(/^\[Helper\] On "Why\?"/);
  });

  it('throws a retryable 429 APICallError with retry-after for a rate_limit step', async () => {
    const error = await scripted([{ error: 'rate_limit' }]).doGenerate({ prompt: userPrompt('x') }).then(undefined, (e: unknown) => e);
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 429, isRetryable: true, responseHeaders: { 'retry-after': '1' } });
  });

  it('throws a retryable 500 APICallError for a server step', async () => {
    const error = await scripted([{ error: 'server' }]).doGenerate({ prompt: userPrompt('x') }).then(undefined, (e: unknown) => e);
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 500, isRetryable: true });
  });

  it('throws a TimeoutError for a timeout step', async () => {
    const error = await scripted([{ error: 'timeout' }]).doGenerate({ prompt: userPrompt('x') }).then(undefined, (e: unknown) => e);
    expect(error).toMatchObject({ name: 'TimeoutError', message: expect.stringContaining('scripted model simulated a timeout') });
  });

  it('returns text that is not valid JSON for a malformed step', async () => {
    const text = await reply(scripted([{ error: 'malformed' }]), 'x');
    expect(() => JSON.parse(text)).toThrow();
  });

  it('moves past an error step so a retry gets the next step', async () => {
    const model = scripted([{ error: 'rate_limit' }, { reply: 'Recovered.' }]);
    await expect(model.doGenerate({ prompt: userPrompt('x') })).rejects.toThrow();
    expect(await reply(model, 'x')).toBe('Recovered.');
  });

  it('fails the stream call too for an error step', async () => {
    await expect(scripted([{ error: 'server' }]).doStream({ prompt: userPrompt('x') })).rejects.toMatchObject({ statusCode: 500 });
  });

  it('refuses an invalid regex when the model is created, naming the agent and step', () => {
    expect(() => scripted([{ reply: 'ok' }, { regex: '(' }])).toThrow(ModelConfigError);
    expect(() => scripted([{ reply: 'ok' }, { regex: '(' }])).toThrow(/Script step 2 of agent 'Helper' has an invalid regex/);
  });
});
