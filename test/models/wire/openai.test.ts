import { expect } from 'vitest';
import { describeWireConformance, type WireFamily } from './conformance.js';
import { startOpenAIFake } from './fakes/openai.js';
import { CALCULATOR_RESULT, SIX_TIMES_SEVEN, VERDICT_SCHEMA } from './turns.js';

// gpt-* and the o-series through @ai-sdk/openai, talking HTTP to a loopback fake of the Responses API.

const MODEL = 'gpt-5-mini';

const OPENAI: WireFamily = {
  title: 'gpt-* on the OpenAI Responses wire',
  model: MODEL,
  wireModel: MODEL,
  provider: 'openai.responses',
  start: startOpenAIFake,
  env: (url) => ({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${url}/v1` }),
  plainAnswer: {
    title: 'answers with one POST /v1/responses carrying the key, the instruction and the user message',
    path: '/v1/responses',
    headers: { authorization: 'Bearer test-key' },
    body: {
      model: MODEL,
      input: [
        { role: 'developer', content: 'You are Analyst.' },
        { role: 'user', content: [{ type: 'input_text', text: 'Capital of France?' }] },
      ],
    },
  },
  streamedAnswer: {
    title: 'streams the answer as one text delta per response.output_text.delta event',
    chunks: ['The capital ', 'of France ', 'is Paris.'],
    request: { body: { stream: true } },
  },
  toolLoop: {
    title: 'runs the calculator for a function_call item and sends its function_call_output back (%s)',
    keepsCallId: true,
    declaredTools: [
      expect.objectContaining({ type: 'function', name: 'calculator', parameters: expect.objectContaining({ required: ['expression'] }) }),
    ],
    continuation: (body) => body.input.slice(2),
    expectedContinuation: (callId) => [
      { type: 'function_call', call_id: callId, name: 'calculator', arguments: JSON.stringify(SIX_TIMES_SEVEN.args) },
      { type: 'function_call_output', call_id: callId, output: JSON.stringify(CALCULATOR_RESULT) },
    ],
  },
  outputSchema: {
    title: 'asks for the outputSchema as a json_schema text format and returns the parsed answer',
    field: 'text',
    expected: { format: { type: 'json_schema', strict: true, name: 'Analyst', schema: VERDICT_SCHEMA } },
  },
  thinking: {
    title: 'surfaces reasoning summaries as thinking and continues the tool loop from the reasoning item by reference (%s)',
    chunkedWhenNotStreamed: false,
    keptOutOfFollowUp: true,
    followUp: (body) => expect(body.input[2]).toEqual({ type: 'item_reference', id: 'rs_fake' }),
  },
  usage: { title: 'reports input, output and reasoning tokens in the usage event', reportsReasoning: true },
  rateLimited: { message: 'Rate limit reached for gpt-5-mini on tokens per min (TPM).', quoted: 'Rate limit reached' },
  serverError: { message: 'The server had an error while processing your request.', quoted: 'The server had an error' },
};

// Everything the Responses wire does shows in the common behaviours; nothing here is OpenAI's alone.
describeWireConformance(OPENAI);
