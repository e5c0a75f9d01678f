import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ofType, turnEnd } from '../../runtime/fixtures.js';
import type { FakeProvider } from './fakes/server.js';
import { startXaiFake } from './fakes/xai.js';
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

// grok-* through @ai-sdk/xai, talking HTTP to a loopback fake of xAI's chat completions API.

const MODEL = 'grok-3-mini';
let fake: FakeProvider;

beforeEach(async () => {
  fake = await startXaiFake();
});
afterEach(() => fake.close());

function run(options: Partial<WireTurn> & { input: string }): ReturnType<typeof runWireTurn> {
  return runWireTurn({ model: MODEL, env: { XAI_API_KEY: 'test-key', XAI_BASE_URL: `${fake.url}/v1` }, stream: true, ...options });
}

describe('grok-* on the xAI chat completions wire', () => {
  it('answers with one POST /v1/chat/completions carrying the key, the system message and the user message', async () => {
    fake.answer({ text: ['Paris.'] });

    const events = await run({ input: 'Capital of France?', stream: false });

    expect(turnEnd(events)).toMatchObject({ status: 'completed', output: 'Paris.' });
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer test-key');
    expect(request?.body).toMatchObject({
      model: MODEL,
      messages: [
        { role: 'system', content: 'You are Analyst.' },
        { role: 'user', content: 'Capital of France?' },
      ],
    });
    expect(request?.body.stream).toBeUndefined();
  });

  it('streams the answer as one text delta per chunk and asks for usage in the stream', async () => {
    fake.answer({ text: ['The capital ', 'of France ', 'is Paris.'] });

    const events = await run({ input: 'Capital of France?' });

    expect(fake.requests[0]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(textDeltas(events)).toEqual(['The capital ', 'of France ', 'is Paris.']);
    expect(turnEnd(events).output).toBe('The capital of France is Paris.');
  });

  it.each(STREAMING)('runs the calculator for a tool_calls entry and sends a tool message back (%s)', async (_mode, stream) => {
    fake.answer({ toolCalls: [SIX_TIMES_SEVEN] }).answer({ text: ['6 × 7 = 42.'] });

    const events = await run({ input: 'What is 6*7?', stream, agent: { tools: ['calculator'] } });

    expect(ofType(events, 'tool-call')[0]).toMatchObject({ tool: 'calculator', callId: SIX_TIMES_SEVEN.id, input: SIX_TIMES_SEVEN.args });
    expect(ofType(events, 'tool-result')[0]).toMatchObject({ output: CALCULATOR_RESULT, isError: false });
    expect(turnEnd(events).output).toBe('6 × 7 = 42.');
    const [first, second] = fake.requests;
    expect(first?.body.tools).toEqual([
      { type: 'function', function: expect.objectContaining({ name: 'calculator', parameters: expect.objectContaining({ required: ['expression'] }) }) },
    ]);
    expect(second?.body.messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: SIX_TIMES_SEVEN.id, type: 'function', function: { name: 'calculator', arguments: JSON.stringify(SIX_TIMES_SEVEN.args) } }],
      },
      { role: 'tool', tool_call_id: SIX_TIMES_SEVEN.id, content: JSON.stringify(CALCULATOR_RESULT) },
    ]);
  });

  it('asks for the outputSchema as a json_schema response format and returns the parsed answer', async () => {
    fake.answer({ text: [JSON.stringify(VERDICT)] });

    const events = await run({ input: 'Approve the offsite?', stream: false, agent: { outputSchema: VERDICT_SCHEMA } });

    expect(fake.requests[0]?.body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'Analyst', schema: VERDICT_SCHEMA, strict: true } });
    expect(JSON.parse(turnEnd(events).output)).toEqual(VERDICT);
  });

  it.each(STREAMING)('surfaces reasoning_content as thinking and keeps it out of the next request (%s)', async (_mode, stream) => {
    fake.answer({ thinking: ['The user wants 6*7; ', 'I should use the calculator.'], toolCalls: [SIX_TIMES_SEVEN] }).answer({ text: ['42.'] });

    const events = await run({ input: 'What is 6*7?', stream, agent: { tools: ['calculator'] } });

    expect(thinkingText(events)).toBe(SECRET_THOUGHT);
    expect(thinkingDeltas(events)).toEqual(stream ? ['The user wants 6*7; ', 'I should use the calculator.'] : [SECRET_THOUGHT]);
    expect(ofType(events, 'message').map((event) => event.text)).toEqual(['42.']);
    expect(JSON.stringify(fake.requests[1]?.body)).not.toContain('I should use the calculator');
  });

  it('reports prompt, completion and reasoning tokens in the usage event', async () => {
    fake.answer({ thinking: ['Easy.'], text: ['42.'], usage: { input: 120, output: 80, reasoning: 50 } });

    const events = await run({ input: 'What is 6*7?' });

    expect(ofType(events, 'usage')).toEqual([
      expect.objectContaining({ provider: 'xai.chat', model: MODEL, outcome: 'ok', inputTokens: 120, outputTokens: 80, reasoningTokens: 50 }),
    ]);
  });

  it('fails the turn naming the provider and the status when rate limited (429 with Retry-After)', async () => {
    fake.fail(429, 'Your team has exceeded its requests per second limit.', { 'retry-after': '7' });

    const events = await run({ input: 'Hello', turn: { retry: { maxRetries: 0 } } });

    expect(turnEnd(events).status).toBe('failed');
    const [error] = ofType(events, 'error');
    expect(error?.code).toBe('model_error');
    expect(error?.message).toContain('xai.chat');
    expect(error?.message).toContain('429');
    expect(error?.message).toContain('requests per second limit');
    expect(ofType(events, 'usage')[0]).toMatchObject({ provider: 'xai.chat', outcome: 'error' });
  });

  it('fails the turn naming the provider and the status on a 500', async () => {
    fake.fail(500, 'The service is currently unavailable.');

    const events = await run({ input: 'Hello', turn: { retry: { maxRetries: 0 } } });

    expect(turnEnd(events).status).toBe('failed');
    const [error] = ofType(events, 'error');
    expect(error?.message).toContain('xai.chat');
    expect(error?.message).toContain('500');
    expect(error?.message).toContain('currently unavailable');
  });

  it('fails the turn naming the provider when the server accepts the request and never answers', async () => {
    fake.hang();

    const events = await run({ input: 'Hello', turn: { retry: { maxRetries: 0, attemptTimeoutMs: 300 } } });

    expect(turnEnd(events).status).toBe('failed');
    const [error] = ofType(events, 'error');
    expect(error?.message).toContain('xai.chat');
    expect(error?.message).toMatch(/timed out/);
    await fake.settled();
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.abandoned).toBe(true);
  });
});
