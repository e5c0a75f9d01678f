import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ofType, turnEnd } from '../../runtime/fixtures.js';
import { startOllamaFake } from './fakes/ollama.js';
import type { FakeProvider } from './fakes/server.js';
import {
  CALCULATOR_RESULT,
  runWireTurn,
  SECRET_THOUGHT,
  SIX_TIMES_SEVEN,
  STREAMING,
  textDeltas,
  thinkingText,
  VERDICT,
  VERDICT_SCHEMA,
  type WireTurn,
} from './turns.js';

// ollama/* through ollama-ai-provider-v2, talking HTTP to a loopback fake of Ollama's /api/chat.

const MODEL = 'ollama/qwen3:8b';
const PROVIDER = 'ollama.responses';
let fake: FakeProvider;

beforeEach(async () => {
  fake = await startOllamaFake();
});
afterEach(() => fake.close());

function run(options: Partial<WireTurn> & { input: string }): ReturnType<typeof runWireTurn> {
  return runWireTurn({ model: MODEL, env: { OLLAMA_BASE_URL: fake.url }, stream: true, ...options });
}

describe('ollama/* on the Ollama /api/chat wire', () => {
  it('answers with one POST /api/chat carrying the system message and the user message', async () => {
    fake.answer({ text: ['Paris.'] });

    const events = await run({ input: 'Capital of France?', stream: false });

    expect(turnEnd(events)).toMatchObject({ status: 'completed', output: 'Paris.' });
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request?.path).toBe('/api/chat');
    expect(request?.body).toMatchObject({
      model: 'qwen3:8b',
      stream: false,
      messages: [
        { role: 'system', content: 'You are Analyst.' },
        { role: 'user', content: 'Capital of France?' },
      ],
    });
  });

  it('streams the answer as one text delta per NDJSON line', async () => {
    fake.answer({ text: ['The capital', ' of France', ' is Paris.'] });

    const events = await run({ input: 'Capital of France?' });

    expect(fake.requests[0]?.body.stream).toBe(true);
    expect(textDeltas(events)).toEqual(['The capital', ' of France', ' is Paris.']);
    expect(turnEnd(events).output).toBe('The capital of France is Paris.');
  });

  it.each(STREAMING)('runs the calculator for a tool_calls entry and sends a tool message back (%s)', async (_mode, stream) => {
    fake.answer({ toolCalls: [SIX_TIMES_SEVEN] }).answer({ text: ['6 × 7 = 42.'] });

    const events = await run({ input: 'What is 6*7?', stream, agent: { tools: ['calculator'] } });

    const [call] = ofType(events, 'tool-call');
    expect(call).toMatchObject({ tool: 'calculator', input: SIX_TIMES_SEVEN.args });
    expect(ofType(events, 'tool-result')[0]).toMatchObject({ output: CALCULATOR_RESULT, isError: false });
    expect(turnEnd(events).output).toBe('6 × 7 = 42.');
    const [first, second] = fake.requests;
    expect(first?.body.tools).toEqual([
      { type: 'function', function: expect.objectContaining({ name: 'calculator', parameters: expect.objectContaining({ required: ['expression'] }) }) },
    ]);
    expect(second?.body.messages.slice(2)).toEqual([
      { role: 'assistant', content: '', tool_calls: [{ id: call?.callId, type: 'function', function: { name: 'calculator', arguments: SIX_TIMES_SEVEN.args } }] },
      { role: 'tool', tool_call_id: call?.callId, content: JSON.stringify(CALCULATOR_RESULT) },
    ]);
  });

  it('asks for the outputSchema as the format and returns the parsed answer', async () => {
    fake.answer({ text: [JSON.stringify(VERDICT)] });

    const events = await run({ input: 'Approve the offsite?', stream: false, agent: { outputSchema: VERDICT_SCHEMA } });

    expect(fake.requests[0]?.body.format).toEqual(VERDICT_SCHEMA);
    expect(JSON.parse(turnEnd(events).output)).toEqual(VERDICT);
  });

  it.each(STREAMING)('turns <think> blocks into thinking, out of the answer and out of the next request (%s)', async (_mode, stream) => {
    fake.answer({ thinking: ['The user wants 6*7; ', 'I should use the calculator.'], toolCalls: [SIX_TIMES_SEVEN] }).answer({ thinking: ['Report it.'], text: ['42.'] });

    const events = await run({ input: 'What is 6*7?', stream, agent: { tools: ['calculator'] } });

    expect(thinkingText(events)).toBe(`${SECRET_THOUGHT}Report it.`);
    expect(ofType(events, 'message').map((event) => event.text)).toEqual(['42.']);
    expect(textDeltas(events).join('')).toBe('42.');
    expect(turnEnd(events).output).toBe('42.');
    expect(JSON.stringify(fake.requests[1]?.body)).not.toContain('I should use the calculator');
  });

  it('reports prompt and eval tokens in the usage event, with no thinking count because Ollama gives none', async () => {
    fake.answer({ thinking: ['Easy.'], text: ['42.'], usage: { input: 120, output: 80 } });

    const events = await run({ input: 'What is 6*7?' });

    expect(ofType(events, 'usage')).toEqual([
      expect.objectContaining({ provider: PROVIDER, model: 'qwen3:8b', outcome: 'ok', inputTokens: 120, outputTokens: 80, reasoningTokens: 0 }),
    ]);
  });

  it('fails the turn with Ollama’s own message when the model is not pulled', async () => {
    fake.fail(404, "model 'qwen3:8b' not found, try pulling it first");

    const events = await run({ input: 'Hello', turn: { retry: { maxRetries: 0 } } });

    expect(turnEnd(events).status).toBe('failed');
    expect(ofType(events, 'error')[0]?.message).toContain("model 'qwen3:8b' not found, try pulling it first");
  });

  it('fails the turn naming the provider and the status when rate limited (429 with Retry-After)', async () => {
    fake.fail(429, 'server busy, please try again.  maximum pending requests exceeded', { 'retry-after': '7' });

    const events = await run({ input: 'Hello', turn: { retry: { maxRetries: 0 } } });

    expect(turnEnd(events).status).toBe('failed');
    const [error] = ofType(events, 'error');
    expect(error?.code).toBe('model_error');
    expect(error?.message).toContain(PROVIDER);
    expect(error?.message).toContain('429');
    expect(error?.message).toContain('maximum pending requests exceeded');
    expect(ofType(events, 'usage')[0]).toMatchObject({ provider: PROVIDER, outcome: 'error' });
  });

  it('fails the turn naming the provider and the status on a 500', async () => {
    fake.fail(500, 'model requires more system memory (9.1 GiB) than is available (4.0 GiB)');

    const events = await run({ input: 'Hello', turn: { retry: { maxRetries: 0 } } });

    expect(turnEnd(events).status).toBe('failed');
    const [error] = ofType(events, 'error');
    expect(error?.message).toContain(PROVIDER);
    expect(error?.message).toContain('500');
    expect(error?.message).toContain('model requires more system memory');
  });

  it('fails the turn naming the provider when the server accepts the request and never answers', async () => {
    fake.hang();

    const events = await run({ input: 'Hello', turn: { retry: { maxRetries: 0, attemptTimeoutMs: 300 } } });

    expect(turnEnd(events).status).toBe('failed');
    const [error] = ofType(events, 'error');
    expect(error?.message).toContain(PROVIDER);
    expect(error?.message).toMatch(/timed out/);
    await fake.settled();
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.abandoned).toBe(true);
  });
});
