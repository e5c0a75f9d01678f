import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ofType, turnEnd } from '../../runtime/fixtures.js';
import { startOpenAIFake } from './fakes/openai.js';
import type { FakeProvider } from './fakes/server.js';
import {
  CALCULATOR_RESULT,
  runWireTurn,
  SECRET_THOUGHT,
  SIX_TIMES_SEVEN,
  STREAMING,
  textDeltas,
  thinkingDeltas,
  thinkingText,
  VERDICT,
  VERDICT_SCHEMA,
  type WireTurn,
} from './turns.js';

// gpt-* and the o-series through @ai-sdk/openai, talking HTTP to a loopback fake of the Responses API.

const MODEL = 'gpt-5-mini';
let fake: FakeProvider;

beforeEach(async () => {
  fake = await startOpenAIFake();
});
afterEach(() => fake.close());

function run(options: Partial<WireTurn> & { input: string }): ReturnType<typeof runWireTurn> {
  return runWireTurn({ model: MODEL, env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${fake.url}/v1` }, stream: true, ...options });
}

describe('gpt-* on the OpenAI Responses wire', () => {
  it('answers with one POST /v1/responses carrying the key, the instruction and the user message', async () => {
    fake.answer({ text: ['Paris.'] });

    const events = await run({ input: 'Capital of France?', stream: false });

    expect(turnEnd(events)).toMatchObject({ status: 'completed', output: 'Paris.' });
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request?.path).toBe('/v1/responses');
    expect(request?.headers.authorization).toBe('Bearer test-key');
    expect(request?.body).toMatchObject({
      model: MODEL,
      input: [
        { role: 'developer', content: 'You are Analyst.' },
        { role: 'user', content: [{ type: 'input_text', text: 'Capital of France?' }] },
      ],
    });
    expect(request?.body.stream).toBeUndefined();
  });

  it('streams the answer as one text delta per response.output_text.delta event', async () => {
    fake.answer({ text: ['The capital ', 'of France ', 'is Paris.'] });

    const events = await run({ input: 'Capital of France?' });

    expect(fake.requests[0]?.body.stream).toBe(true);
    expect(textDeltas(events)).toEqual(['The capital ', 'of France ', 'is Paris.']);
    expect(turnEnd(events).output).toBe('The capital of France is Paris.');
  });

  it.each(STREAMING)('runs the calculator for a function_call item and sends its function_call_output back (%s)', async (_mode, stream) => {
    fake.answer({ toolCalls: [SIX_TIMES_SEVEN] }).answer({ text: ['6 × 7 = 42.'] });

    const events = await run({ input: 'What is 6*7?', stream, agent: { tools: ['calculator'] } });

    expect(ofType(events, 'tool-call')[0]).toMatchObject({ tool: 'calculator', callId: SIX_TIMES_SEVEN.id, input: SIX_TIMES_SEVEN.args });
    expect(ofType(events, 'tool-result')[0]).toMatchObject({ output: CALCULATOR_RESULT, isError: false });
    expect(turnEnd(events).output).toBe('6 × 7 = 42.');
    const [first, second] = fake.requests;
    expect(first?.body.tools).toEqual([
      expect.objectContaining({ type: 'function', name: 'calculator', parameters: expect.objectContaining({ required: ['expression'] }) }),
    ]);
    expect(second?.body.input.slice(2)).toEqual([
      { type: 'function_call', call_id: SIX_TIMES_SEVEN.id, name: 'calculator', arguments: JSON.stringify(SIX_TIMES_SEVEN.args) },
      { type: 'function_call_output', call_id: SIX_TIMES_SEVEN.id, output: JSON.stringify(CALCULATOR_RESULT) },
    ]);
  });

  it('asks for the outputSchema as a json_schema text format and returns the parsed answer', async () => {
    fake.answer({ text: [JSON.stringify(VERDICT)] });

    const events = await run({ input: 'Approve the offsite?', stream: false, agent: { outputSchema: VERDICT_SCHEMA } });

    expect(fake.requests[0]?.body.text).toEqual({ format: { type: 'json_schema', strict: true, name: 'Analyst', schema: VERDICT_SCHEMA } });
    expect(JSON.parse(turnEnd(events).output)).toEqual(VERDICT);
  });

  it.each(STREAMING)('surfaces reasoning summaries as thinking and continues the tool loop from the reasoning item by reference (%s)', async (_mode, stream) => {
    fake.answer({ thinking: ['The user wants 6*7; ', 'I should use the calculator.'], toolCalls: [SIX_TIMES_SEVEN] }).answer({ text: ['42.'] });

    const events = await run({ input: 'What is 6*7?', stream, agent: { tools: ['calculator'] } });

    expect(thinkingText(events)).toBe(SECRET_THOUGHT);
    expect(thinkingDeltas(events)).toEqual(stream ? ['The user wants 6*7; ', 'I should use the calculator.'] : [SECRET_THOUGHT]);
    expect(ofType(events, 'message').map((event) => event.text)).toEqual(['42.']);
    const next = JSON.stringify(fake.requests[1]?.body);
    expect(next).not.toContain('I should use the calculator');
    expect(fake.requests[1]?.body.input[2]).toEqual({ type: 'item_reference', id: 'rs_fake' });
  });

  it('reports input, output and reasoning tokens in the usage event', async () => {
    fake.answer({ thinking: ['Easy.'], text: ['42.'], usage: { input: 120, output: 80, reasoning: 50 } });

    const events = await run({ input: 'What is 6*7?' });

    expect(ofType(events, 'usage')).toEqual([
      expect.objectContaining({ provider: 'openai.responses', model: MODEL, outcome: 'ok', inputTokens: 120, outputTokens: 80, reasoningTokens: 50 }),
    ]);
  });

  it('fails the turn naming the provider and the status when rate limited (429 with Retry-After)', async () => {
    fake.fail(429, 'Rate limit reached for gpt-5-mini on tokens per min (TPM).', { 'retry-after': '7' });

    const events = await run({ input: 'Hello', turn: { retry: { maxRetries: 0 } } });

    expect(turnEnd(events).status).toBe('failed');
    const [error] = ofType(events, 'error');
    expect(error?.code).toBe('model_error');
    expect(error?.message).toContain('openai.responses');
    expect(error?.message).toContain('429');
    expect(error?.message).toContain('Rate limit reached');
    expect(ofType(events, 'usage')[0]).toMatchObject({ provider: 'openai.responses', outcome: 'error' });
  });

  it('fails the turn naming the provider and the status on a 500', async () => {
    fake.fail(500, 'The server had an error while processing your request.');

    const events = await run({ input: 'Hello', turn: { retry: { maxRetries: 0 } } });

    expect(turnEnd(events).status).toBe('failed');
    const [error] = ofType(events, 'error');
    expect(error?.message).toContain('openai.responses');
    expect(error?.message).toContain('500');
    expect(error?.message).toContain('The server had an error');
  });

  it('fails the turn naming the provider when the server accepts the request and never answers', async () => {
    fake.hang();

    const events = await run({ input: 'Hello', turn: { retry: { maxRetries: 0, attemptTimeoutMs: 300 } } });

    expect(turnEnd(events).status).toBe('failed');
    const [error] = ofType(events, 'error');
    expect(error?.message).toContain('openai.responses');
    expect(error?.message).toMatch(/timed out/);
    await fake.settled();
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.abandoned).toBe(true);
  });
});
