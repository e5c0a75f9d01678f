import { expect } from 'vitest';
import { describeWireConformance, type WireFamily } from './conformance.js';
import { startGoogleFake } from './fakes/google.js';
import { CALCULATOR_RESULT, SIX_TIMES_SEVEN } from './turns.js';

// gemini-* through @ai-sdk/google, talking HTTP to a loopback fake of the Gemini API.

const MODEL = 'gemini-2.5-flash';

const GOOGLE: WireFamily = {
  title: 'gemini-* on the Gemini API wire',
  model: MODEL,
  wireModel: MODEL,
  provider: 'google.generative-ai',
  start: startGoogleFake,
  env: (url) => ({ GEMINI_API_KEY: 'test-key', GOOGLE_GENERATIVE_AI_BASE_URL: `${url}/v1beta` }),
  plainAnswer: {
    title: 'answers with one generateContent call carrying the key, the system instruction and the user message',
    path: `/v1beta/models/${MODEL}:generateContent`,
    headers: { 'x-goog-api-key': 'test-key' },
    body: {
      systemInstruction: { parts: [{ text: 'You are Analyst.' }] },
      contents: [{ role: 'user', parts: [{ text: 'Capital of France?' }] }],
    },
  },
  streamedAnswer: {
    title: 'streams the answer from streamGenerateContent?alt=sse as one text delta per chunk',
    chunks: ['The capital ', 'of France ', 'is Paris.'],
    request: { path: `/v1beta/models/${MODEL}:streamGenerateContent?alt=sse` },
  },
  toolLoop: {
    title: 'runs the calculator for a functionCall part and sends a functionResponse back (%s)',
    // Gemini's functionCall carries no id the SDK keeps; it makes one up and sends it back.
    keepsCallId: false,
    declaredTools: [
      { functionDeclarations: [expect.objectContaining({ name: 'calculator', parameters: expect.objectContaining({ required: ['expression'] }) })] },
    ],
    continuation: (body) => body.contents.slice(1),
    expectedContinuation: (callId) => [
      { role: 'model', parts: [{ functionCall: { id: callId, name: 'calculator', args: SIX_TIMES_SEVEN.args } }] },
      { role: 'user', parts: [{ functionResponse: { id: callId, name: 'calculator', response: { name: 'calculator', content: CALCULATOR_RESULT } } }] },
    ],
  },
  outputSchema: {
    title: 'asks for JSON with the outputSchema as responseSchema and returns the parsed answer',
    field: 'generationConfig',
    // Gemini takes its own schema dialect, so only the parts the SDK keeps are matched.
    expected: expect.objectContaining({
      responseMimeType: 'application/json',
      responseSchema: expect.objectContaining({
        type: 'object',
        properties: { verdict: { type: 'string', enum: ['approve', 'reject'] }, confidence: { type: 'integer' } },
        required: ['verdict', 'confidence'],
      }),
    }),
  },
  thinking: {
    title: 'surfaces thought parts as thinking and keeps them out of the next request (%s)',
    chunkedWhenNotStreamed: true,
    keptOutOfFollowUp: true,
  },
  usage: { title: 'reports prompt, candidate and thought tokens in the usage event', reportsReasoning: true },
  rateLimited: { message: 'Resource has been exhausted (e.g. check quota).', quoted: 'Resource has been exhausted' },
  serverError: { message: 'Internal error encountered.', quoted: 'Internal error encountered.' },
};

// Everything the Gemini wire does shows in the common behaviours; nothing here is Gemini's alone.
describeWireConformance(GOOGLE);
