import { SSE, sseFrame, startFake, type AnswerScript, type FakeProvider, type WireFormat } from './server.js';

// Gemini API (Generative Language): POST /v1beta/models/<model>:generateContent returns one
// GenerateContentResponse; :streamGenerateContent?alt=sse returns a series of them as SSE
// `data:` lines, the last carrying finishReason and usageMetadata. Thoughts are text parts
// with `thought: true`.

export const GEMINI_THOUGHT_SIGNATURE = 'c2lnbmF0dXJlLWZyb20tZmFrZQ==';

type Part =
  | { text: string; thought?: true }
  | { functionCall: { name: string; args: Record<string, unknown> }; thoughtSignature?: string };

function thoughtParts(answer: AnswerScript): Part[] {
  return (answer.thinking ?? []).map((text) => ({ text, thought: true }));
}

function textParts(answer: AnswerScript): Part[] {
  return (answer.text ?? []).map((text) => ({ text }));
}

// The API gives function calls no id (the SDK makes one up). With thinking on, the first call
// carries the signature of the thoughts before it.
function callParts(answer: AnswerScript): Part[] {
  return (answer.toolCalls ?? []).map((call, index) => ({
    functionCall: { name: call.name, args: call.args },
    ...(index === 0 && answer.thinking ? { thoughtSignature: GEMINI_THOUGHT_SIGNATURE } : {}),
  }));
}

function usageMetadata(answer: AnswerScript): Record<string, number> {
  const usage = answer.usage ?? { input: 10, output: 5 };
  const thoughts = usage.reasoning ?? 0;
  return {
    promptTokenCount: usage.input,
    candidatesTokenCount: usage.output - thoughts,
    ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
    totalTokenCount: usage.input + usage.output,
  };
}

function response(parts: Part[], last: boolean, answer: AnswerScript): Record<string, unknown> {
  return {
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
    ...(last ? { usageMetadata: usageMetadata(answer) } : {}),
    modelVersion: 'gemini-2.5-flash',
    responseId: 'resp-fake',
  };
}

const STATUS_NAMES: Readonly<Record<number, string>> = { 400: 'INVALID_ARGUMENT', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE' };

export const googleWire: WireFormat = {
  name: 'google',
  wantsStream: (request) => request.path.includes(':streamGenerateContent'),
  json: (answer) => response([...thoughtParts(answer), ...textParts(answer), ...callParts(answer)], true, answer),
  stream(answer) {
    // One part per chunk, as the API streams them; function calls come together in one chunk.
    const pieces = [...thoughtParts(answer), ...textParts(answer)].map((part) => [part]);
    const calls = callParts(answer);
    if (calls.length > 0 || pieces.length === 0) pieces.push(calls);
    const chunks = pieces.map((parts, index) => sseFrame(response(parts, index === pieces.length - 1, answer)));
    return { contentType: SSE, chunks };
  },
  errorBody: (status, message) => ({ error: { code: status, message, status: STATUS_NAMES[status] ?? 'UNKNOWN' } }),
};

export function startGoogleFake(): Promise<FakeProvider> {
  return startFake(googleWire);
}
