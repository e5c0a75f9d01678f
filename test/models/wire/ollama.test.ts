import { describe, expect, it } from 'vitest';
import { ofType, turnEnd } from '../../runtime/fixtures.js';
import { describeWireConformance, useWireFake, type WireFamily } from './conformance.js';
import { startOllamaFake } from './fakes/ollama.js';
import { CALCULATOR_FUNCTION_TOOLS, calculatorToolMessages, SECRET_THOUGHT, SIX_TIMES_SEVEN, STREAMING, textDeltas, thinkingText, VERDICT_SCHEMA } from './turns.js';

// ollama/* through ollama-ai-provider-v2, talking HTTP to a loopback fake of Ollama's /api/chat.

const OLLAMA: WireFamily = {
  title: 'ollama/* on the Ollama /api/chat wire',
  model: 'ollama/qwen3:8b',
  wireModel: 'qwen3:8b',
  provider: 'ollama.responses',
  start: startOllamaFake,
  env: (url) => ({ OLLAMA_BASE_URL: url }),
  plainAnswer: {
    title: 'answers with one POST /api/chat carrying the system message and the user message',
    path: '/api/chat',
    // A local server: no key to carry.
    headers: {},
    body: {
      model: 'qwen3:8b',
      messages: [
        { role: 'system', content: 'You are Analyst.' },
        { role: 'user', content: 'Capital of France?' },
      ],
    },
    stream: false,
  },
  streamedAnswer: {
    title: 'streams the answer as one text delta per NDJSON line',
    chunks: ['The capital', ' of France', ' is Paris.'],
    request: { body: { stream: true } },
  },
  toolLoop: {
    title: 'runs the calculator for a tool_calls entry and sends a tool message back (%s)',
    // Ollama's tool_calls carry no id; the SDK makes one up and sends it back.
    keepsCallId: false,
    declaredTools: CALCULATOR_FUNCTION_TOOLS,
    continuation: (body) => body.messages.slice(2),
    expectedContinuation: (callId) => calculatorToolMessages(callId, { content: '', arguments: SIX_TIMES_SEVEN.args }),
  },
  outputSchema: {
    title: 'asks for the outputSchema as the format and returns the parsed answer',
    field: 'format',
    expected: VERDICT_SCHEMA,
  },
  // Ollama thinks in <think> blocks inside the text, tested below.
  usage: { title: 'reports prompt and eval tokens in the usage event, with no thinking count because Ollama gives none', reportsReasoning: false },
  rateLimited: { message: 'server busy, please try again.  maximum pending requests exceeded', quoted: 'maximum pending requests exceeded' },
  serverError: { message: 'model requires more system memory (9.1 GiB) than is available (4.0 GiB)', quoted: 'model requires more system memory' },
};

describeWireConformance(OLLAMA);

describe(OLLAMA.title, () => {
  const wire = useWireFake(OLLAMA);

  it.each(STREAMING)('turns <think> blocks into thinking, out of the answer and out of the next request (%s)', async (_mode, stream) => {
    wire.fake
      .answer({ thinking: ['The user wants 6*7; ', 'I should use the calculator.'], toolCalls: [SIX_TIMES_SEVEN] })
      .answer({ thinking: ['Report it.'], text: ['42.'] });

    const events = await wire.run({ input: 'What is 6*7?', stream, agent: { tools: ['calculator'] } });

    expect(thinkingText(events)).toBe(`${SECRET_THOUGHT}Report it.`);
    expect(ofType(events, 'message').map((event) => event.text)).toEqual(['42.']);
    expect(textDeltas(events).join('')).toBe('42.');
    expect(turnEnd(events).output).toBe('42.');
    expect(JSON.stringify(wire.fake.requests[1]?.body)).not.toContain('I should use the calculator');
  });

  it('fails the turn with Ollama’s own message when the model is not pulled', async () => {
    wire.fake.fail(404, "model 'qwen3:8b' not found, try pulling it first");

    const events = await wire.run({ input: 'Hello', turn: { retry: { maxRetries: 0 } } });

    expect(turnEnd(events).status).toBe('failed');
    expect(ofType(events, 'error')[0]?.message).toContain("model 'qwen3:8b' not found, try pulling it first");
  });
});
