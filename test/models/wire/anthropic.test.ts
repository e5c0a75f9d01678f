import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../src/store/sqlite/index.js';
import { tempDbPath } from '../../runtime/fixtures.js';
import { describeWireConformance, useWireFake, type WireFamily } from './conformance.js';
import { SIGNATURE, startAnthropicFake } from './fakes/anthropic.js';
import { CALCULATOR_RESULT, SECRET_THOUGHT, SIX_TIMES_SEVEN, VERDICT_SCHEMA } from './turns.js';

// claude-* through @ai-sdk/anthropic, talking HTTP to a loopback fake of the Messages API.

const MODEL = 'claude-sonnet-4-5';

const ANTHROPIC: WireFamily = {
  title: 'claude-* on the Anthropic Messages wire',
  model: MODEL,
  wireModel: MODEL,
  provider: 'anthropic.messages',
  start: startAnthropicFake,
  env: (url) => ({ ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: `${url}/v1` }),
  plainAnswer: {
    title: 'answers with one POST /v1/messages carrying the key, the system prompt and the user message',
    path: '/v1/messages',
    headers: { 'x-api-key': 'test-key', 'anthropic-version': '2023-06-01' },
    body: {
      model: MODEL,
      system: [{ type: 'text', text: 'You are Analyst.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Capital of France?' }] }],
    },
  },
  streamedAnswer: {
    title: 'streams the answer over SSE as one text delta per content_block_delta',
    chunks: ['The capital ', 'of France ', 'is Paris.'],
    request: { body: { stream: true } },
  },
  toolLoop: {
    title: 'runs the calculator for a tool_use block and sends its tool_result back (%s)',
    keepsCallId: true,
    declaredTools: [expect.objectContaining({ name: 'calculator', input_schema: expect.objectContaining({ required: ['expression'] }) })],
    continuation: (body) => body.messages.slice(1),
    expectedContinuation: (callId) => [
      { role: 'assistant', content: [{ type: 'tool_use', id: callId, name: 'calculator', input: SIX_TIMES_SEVEN.args }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: callId, content: JSON.stringify(CALCULATOR_RESULT) }] },
    ],
  },
  outputSchema: {
    title: 'asks for the outputSchema as a json_schema output format and returns the parsed answer',
    field: 'output_config',
    expected: { format: { type: 'json_schema', schema: VERDICT_SCHEMA } },
  },
  thinking: {
    title: 'surfaces thinking blocks as thinking and replays the signed block with its tool_use (%s)',
    chunkedWhenNotStreamed: false,
    // The Messages API rejects a tool result whose signed thinking block is missing.
    keptOutOfFollowUp: false,
    followUp: (body) =>
      expect(body.messages[1]).toEqual({
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: SECRET_THOUGHT, signature: SIGNATURE },
          { type: 'tool_use', id: SIX_TIMES_SEVEN.id, name: 'calculator', input: SIX_TIMES_SEVEN.args },
        ],
      }),
  },
  usage: { title: 'reports input, output and thinking tokens in the usage event', reportsReasoning: true },
  rateLimited: { message: 'Number of request tokens has exceeded your per-minute rate limit', quoted: 'per-minute rate limit' },
  serverError: { message: 'Internal server error', quoted: 'Internal server error' },
};

describeWireConformance(ANTHROPIC);

describe(ANTHROPIC.title, () => {
  const wire = useWireFake(ANTHROPIC);

  it('keeps thinking out of the next turn of the session', async () => {
    wire.fake.answer({ thinking: ['I should use the calculator.'], text: ['42.'] }).answer({ text: ['Sure.'] });
    const store = openSqliteStore(tempDbPath());

    await wire.run({ input: 'What is 6*7?', stream: false, turn: { sessionId: 'thinking', store } });
    await wire.run({ input: 'And 7*6?', stream: false, turn: { sessionId: 'thinking', store } });

    expect(JSON.stringify(wire.fake.requests[1]?.body)).not.toContain('I should use the calculator');
    await store.close();
  });
});
