import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../src/store/sqlite/index.js';
import { ofType, tempDbPath, turnEnd } from '../../runtime/fixtures.js';
import { SIGNATURE, startAnthropicFake } from './fakes/anthropic.js';
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

// claude-* through @ai-sdk/anthropic, talking HTTP to a loopback fake of the Messages API.

const MODEL = 'claude-sonnet-4-5';
let fake: FakeProvider;

beforeEach(async () => {
  fake = await startAnthropicFake();
});
afterEach(() => fake.close());

function run(options: Partial<WireTurn> & { input: string }): ReturnType<typeof runWireTurn> {
  return runWireTurn({ model: MODEL, env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: `${fake.url}/v1` }, stream: true, ...options });
}

describe('claude-* on the Anthropic Messages wire', () => {
  it('answers with one POST /v1/messages carrying the key, the system prompt and the user message', async () => {
    fake.answer({ text: ['Paris.'] });

    const events = await run({ input: 'Capital of France?', stream: false });

    expect(turnEnd(events)).toMatchObject({ status: 'completed', output: 'Paris.' });
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request?.path).toBe('/v1/messages');
    expect(request?.headers['x-api-key']).toBe('test-key');
    expect(request?.headers['anthropic-version']).toBe('2023-06-01');
    expect(request?.body).toMatchObject({
      model: MODEL,
      system: [{ type: 'text', text: 'You are Analyst.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Capital of France?' }] }],
    });
    expect(request?.body.stream).toBeUndefined();
  });

  it('streams the answer over SSE as one text delta per content_block_delta', async () => {
    fake.answer({ text: ['The capital ', 'of France ', 'is Paris.'] });

    const events = await run({ input: 'Capital of France?' });

    expect(fake.requests[0]?.body.stream).toBe(true);
    expect(textDeltas(events)).toEqual(['The capital ', 'of France ', 'is Paris.']);
    expect(turnEnd(events).output).toBe('The capital of France is Paris.');
  });

  it.each(STREAMING)('runs the calculator for a tool_use block and sends its tool_result back (%s)', async (_mode, stream) => {
    fake.answer({ toolCalls: [SIX_TIMES_SEVEN] }).answer({ text: ['6 × 7 = 42.'] });

    const events = await run({ input: 'What is 6*7?', stream, agent: { tools: ['calculator'] } });

    expect(ofType(events, 'tool-call')[0]).toMatchObject({ tool: 'calculator', callId: SIX_TIMES_SEVEN.id, input: SIX_TIMES_SEVEN.args });
    expect(ofType(events, 'tool-result')[0]).toMatchObject({ output: CALCULATOR_RESULT, isError: false });
    expect(turnEnd(events).output).toBe('6 × 7 = 42.');
    const [first, second] = fake.requests;
    expect(first?.body.tools).toEqual([expect.objectContaining({ name: 'calculator', input_schema: expect.objectContaining({ required: ['expression'] }) })]);
    expect(second?.body.messages.slice(1)).toEqual([
      { role: 'assistant', content: [{ type: 'tool_use', id: SIX_TIMES_SEVEN.id, name: 'calculator', input: SIX_TIMES_SEVEN.args }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: SIX_TIMES_SEVEN.id, content: JSON.stringify(CALCULATOR_RESULT) }] },
    ]);
  });

  it('asks for the outputSchema as a json_schema output format and returns the parsed answer', async () => {
    fake.answer({ text: [JSON.stringify(VERDICT)] });

    const events = await run({ input: 'Approve the offsite?', stream: false, agent: { outputSchema: VERDICT_SCHEMA } });

    expect(fake.requests[0]?.body.output_config).toEqual({ format: { type: 'json_schema', schema: VERDICT_SCHEMA } });
    expect(JSON.parse(turnEnd(events).output)).toEqual(VERDICT);
  });

  it.each(STREAMING)('surfaces thinking blocks as thinking and replays the signed block with its tool_use (%s)', async (_mode, stream) => {
    fake.answer({ thinking: ['The user wants 6*7; ', 'I should use the calculator.'], toolCalls: [SIX_TIMES_SEVEN] }).answer({ text: ['42.'] });

    const events = await run({ input: 'What is 6*7?', stream, agent: { tools: ['calculator'] } });

    expect(thinkingText(events)).toBe(SECRET_THOUGHT);
    expect(thinkingDeltas(events)).toEqual(stream ? ['The user wants 6*7; ', 'I should use the calculator.'] : [SECRET_THOUGHT]);
    expect(ofType(events, 'message').map((event) => event.text)).toEqual(['42.']);
    // The Messages API rejects a tool result whose signed thinking block is missing.
    expect(fake.requests[1]?.body.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: SECRET_THOUGHT, signature: SIGNATURE },
        { type: 'tool_use', id: SIX_TIMES_SEVEN.id, name: 'calculator', input: SIX_TIMES_SEVEN.args },
      ],
    });
  });

  it('keeps thinking out of the next turn of the session', async () => {
    fake.answer({ thinking: ['I should use the calculator.'], text: ['42.'] }).answer({ text: ['Sure.'] });
    const store = openSqliteStore(tempDbPath());

    await run({ input: 'What is 6*7?', stream: false, turn: { sessionId: 'thinking', store } });
    await run({ input: 'And 7*6?', stream: false, turn: { sessionId: 'thinking', store } });

    expect(JSON.stringify(fake.requests[1]?.body)).not.toContain('I should use the calculator');
    await store.close();
  });

  it('reports input, output and thinking tokens in the usage event', async () => {
    fake.answer({ thinking: ['Easy.'], text: ['42.'], usage: { input: 120, output: 80, reasoning: 50 } });

    const events = await run({ input: 'What is 6*7?' });

    expect(ofType(events, 'usage')).toEqual([
      expect.objectContaining({ provider: 'anthropic.messages', model: MODEL, outcome: 'ok', inputTokens: 120, outputTokens: 80, reasoningTokens: 50 }),
    ]);
  });

  it('fails the turn naming the provider and the status when rate limited (429 with Retry-After)', async () => {
    fake.fail(429, 'Number of request tokens has exceeded your per-minute rate limit', { 'retry-after': '7' });

    const events = await run({ input: 'Hello', turn: { retry: { maxRetries: 0 } } });

    expect(turnEnd(events).status).toBe('failed');
    const [error] = ofType(events, 'error');
    expect(error?.code).toBe('model_error');
    expect(error?.message).toContain('anthropic.messages');
    expect(error?.message).toContain('429');
    expect(error?.message).toContain('per-minute rate limit');
    expect(ofType(events, 'usage')[0]).toMatchObject({ provider: 'anthropic.messages', outcome: 'error' });
  });

  it('fails the turn naming the provider and the status on a 500', async () => {
    fake.fail(500, 'Internal server error');

    const events = await run({ input: 'Hello', turn: { retry: { maxRetries: 0 } } });

    expect(turnEnd(events).status).toBe('failed');
    const [error] = ofType(events, 'error');
    expect(error?.message).toContain('anthropic.messages');
    expect(error?.message).toContain('500');
    expect(error?.message).toContain('Internal server error');
  });

  it('fails the turn naming the provider when the server accepts the request and never answers', async () => {
    fake.hang();

    const events = await run({ input: 'Hello', turn: { retry: { maxRetries: 0, attemptTimeoutMs: 300 } } });

    expect(turnEnd(events).status).toBe('failed');
    const [error] = ofType(events, 'error');
    expect(error?.message).toContain('anthropic.messages');
    expect(error?.message).toMatch(/timed out/);
    await fake.settled();
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.abandoned).toBe(true);
  });
});
