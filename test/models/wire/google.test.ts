import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ofType, turnEnd } from '../../runtime/fixtures.js';
import { startGoogleFake } from './fakes/google.js';
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

// gemini-* through @ai-sdk/google, talking HTTP to a loopback fake of the Gemini API.

const MODEL = 'gemini-2.5-flash';
let fake: FakeProvider;

beforeEach(async () => {
  fake = await startGoogleFake();
});
afterEach(() => fake.close());

function run(options: Partial<WireTurn> & { input: string }): ReturnType<typeof runWireTurn> {
  return runWireTurn({ model: MODEL, env: { GEMINI_API_KEY: 'test-key', GOOGLE_GENERATIVE_AI_BASE_URL: `${fake.url}/v1beta` }, stream: true, ...options });
}

describe('gemini-* on the Gemini API wire', () => {
  it('answers with one generateContent call carrying the key, the system instruction and the user message', async () => {
    fake.answer({ text: ['Paris.'] });

    const events = await run({ input: 'Capital of France?', stream: false });

    expect(turnEnd(events)).toMatchObject({ status: 'completed', output: 'Paris.' });
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request?.path).toBe(`/v1beta/models/${MODEL}:generateContent`);
    expect(request?.headers['x-goog-api-key']).toBe('test-key');
    expect(request?.body).toMatchObject({
      systemInstruction: { parts: [{ text: 'You are Analyst.' }] },
      contents: [{ role: 'user', parts: [{ text: 'Capital of France?' }] }],
    });
  });

  it('streams the answer from streamGenerateContent?alt=sse as one text delta per chunk', async () => {
    fake.answer({ text: ['The capital ', 'of France ', 'is Paris.'] });

    const events = await run({ input: 'Capital of France?' });

    expect(fake.requests[0]?.path).toBe(`/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`);
    expect(textDeltas(events)).toEqual(['The capital ', 'of France ', 'is Paris.']);
    expect(turnEnd(events).output).toBe('The capital of France is Paris.');
  });

  it.each(STREAMING)('runs the calculator for a functionCall part and sends a functionResponse back (%s)', async (_mode, stream) => {
    fake.answer({ toolCalls: [SIX_TIMES_SEVEN] }).answer({ text: ['6 × 7 = 42.'] });

    const events = await run({ input: 'What is 6*7?', stream, agent: { tools: ['calculator'] } });

    const [call] = ofType(events, 'tool-call');
    expect(call).toMatchObject({ tool: 'calculator', input: SIX_TIMES_SEVEN.args });
    expect(ofType(events, 'tool-result')[0]).toMatchObject({ output: CALCULATOR_RESULT, isError: false });
    expect(turnEnd(events).output).toBe('6 × 7 = 42.');
    const [first, second] = fake.requests;
    expect(first?.body.tools).toEqual([
      { functionDeclarations: [expect.objectContaining({ name: 'calculator', parameters: expect.objectContaining({ required: ['expression'] }) })] },
    ]);
    expect(second?.body.contents.slice(1)).toEqual([
      { role: 'model', parts: [{ functionCall: { id: call?.callId, name: 'calculator', args: SIX_TIMES_SEVEN.args } }] },
      { role: 'user', parts: [{ functionResponse: { id: call?.callId, name: 'calculator', response: { name: 'calculator', content: CALCULATOR_RESULT } } }] },
    ]);
  });

  it('asks for JSON with the outputSchema as responseSchema and returns the parsed answer', async () => {
    fake.answer({ text: [JSON.stringify(VERDICT)] });

    const events = await run({ input: 'Approve the offsite?', stream: false, agent: { outputSchema: VERDICT_SCHEMA } });

    expect(fake.requests[0]?.body.generationConfig).toMatchObject({
      responseMimeType: 'application/json',
      responseSchema: {
        type: 'object',
        properties: { verdict: { type: 'string', enum: ['approve', 'reject'] }, confidence: { type: 'integer' } },
        required: ['verdict', 'confidence'],
      },
    });
    expect(JSON.parse(turnEnd(events).output)).toEqual(VERDICT);
  });

  it.each(STREAMING)('surfaces thought parts as thinking and keeps them out of the next request (%s)', async (_mode, stream) => {
    fake.answer({ thinking: ['The user wants 6*7; ', 'I should use the calculator.'], toolCalls: [SIX_TIMES_SEVEN] }).answer({ text: ['42.'] });

    const events = await run({ input: 'What is 6*7?', stream, agent: { tools: ['calculator'] } });

    expect(thinkingText(events)).toBe(SECRET_THOUGHT);
    expect(thinkingDeltas(events)).toEqual(['The user wants 6*7; ', 'I should use the calculator.']);
    expect(ofType(events, 'message').map((event) => event.text)).toEqual(['42.']);
    expect(JSON.stringify(fake.requests[1]?.body)).not.toContain('I should use the calculator');
  });

  it('reports prompt, candidate and thought tokens in the usage event', async () => {
    fake.answer({ thinking: ['Easy.'], text: ['42.'], usage: { input: 120, output: 80, reasoning: 50 } });

    const events = await run({ input: 'What is 6*7?' });

    expect(ofType(events, 'usage')).toEqual([
      expect.objectContaining({ provider: 'google.generative-ai', model: MODEL, outcome: 'ok', inputTokens: 120, outputTokens: 80, reasoningTokens: 50 }),
    ]);
  });

  it('fails the turn naming the provider and the status when rate limited (429 with Retry-After)', async () => {
    fake.fail(429, 'Resource has been exhausted (e.g. check quota).', { 'retry-after': '7' });

    const events = await run({ input: 'Hello', turn: { retry: { maxRetries: 0 } } });

    expect(turnEnd(events).status).toBe('failed');
    const [error] = ofType(events, 'error');
    expect(error?.code).toBe('model_error');
    expect(error?.message).toContain('google.generative-ai');
    expect(error?.message).toContain('429');
    expect(error?.message).toContain('Resource has been exhausted');
    expect(ofType(events, 'usage')[0]).toMatchObject({ provider: 'google.generative-ai', outcome: 'error' });
  });

  it('fails the turn naming the provider and the status on a 500', async () => {
    fake.fail(500, 'Internal error encountered.');

    const events = await run({ input: 'Hello', turn: { retry: { maxRetries: 0 } } });

    expect(turnEnd(events).status).toBe('failed');
    const [error] = ofType(events, 'error');
    expect(error?.message).toContain('google.generative-ai');
    expect(error?.message).toContain('500');
    expect(error?.message).toContain('Internal error encountered.');
  });

  it('fails the turn naming the provider when the server accepts the request and never answers', async () => {
    fake.hang();

    const events = await run({ input: 'Hello', turn: { retry: { maxRetries: 0, attemptTimeoutMs: 300 } } });

    expect(turnEnd(events).status).toBe('failed');
    const [error] = ofType(events, 'error');
    expect(error?.message).toContain('google.generative-ai');
    expect(error?.message).toMatch(/timed out/);
    await fake.settled();
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.abandoned).toBe(true);
  });
});
