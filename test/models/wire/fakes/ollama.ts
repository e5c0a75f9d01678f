import { startFake, type AnswerScript, type FakeProvider, type RecordedRequest, type WireFormat } from './server.js';

// Ollama's native API as ollama-ai-provider-v2 calls it: POST /api/chat, one JSON object, or with
// "stream": true newline-delimited JSON chunks, the last with "done": true and the token counts.
// Tool calls carry arguments as an object and no id. Thinking is written inline as
// <think>…</think>, the way qwen3 and deepseek-r1 answer when the request says "think": false
// (the provider's default). Errors are `{"error": "<message>"}`.

function content(pieces: readonly string[], answer: AnswerScript): string[] {
  if (!answer.thinking) return [...pieces];
  return ['<think>\n', ...answer.thinking, '\n</think>\n\n', ...pieces];
}

function toolCalls(answer: AnswerScript): Array<Record<string, unknown>> {
  return (answer.toolCalls ?? []).map((call) => ({ function: { name: call.name, arguments: call.args } }));
}

function chunk(request: RecordedRequest, message: Record<string, unknown>, done: boolean): Record<string, unknown> {
  return { model: String(request.body?.model), created_at: '2026-01-01T00:00:00.000Z', message: { role: 'assistant', ...message }, done };
}

function doneFields(answer: AnswerScript): Record<string, unknown> {
  const usage = answer.usage ?? { input: 10, output: 5 };
  return {
    done_reason: 'stop',
    total_duration: 1_000_000,
    load_duration: 1_000,
    prompt_eval_count: usage.input,
    prompt_eval_duration: 1_000,
    eval_count: usage.output,
    eval_duration: 1_000,
  };
}

export const ollamaWire: WireFormat = {
  name: 'ollama',
  wantsStream: (request) => request.body?.stream === true,
  json(answer, request) {
    const calls = toolCalls(answer);
    const message = { content: content(answer.text ?? [], answer).join(''), ...(calls.length ? { tool_calls: calls } : {}) };
    return { ...chunk(request, message, true), ...doneFields(answer) };
  },
  stream(answer, request) {
    const calls = toolCalls(answer);
    const lines = [
      ...content(answer.text ?? [], answer).map((piece) => chunk(request, { content: piece }, false)),
      ...(calls.length ? [chunk(request, { content: '', tool_calls: calls }, false)] : []),
      { ...chunk(request, { content: '' }, true), ...doneFields(answer) },
    ];
    return { contentType: 'application/x-ndjson', chunks: lines.map((line) => `${JSON.stringify(line)}\n`) };
  },
  errorBody: (_status, message) => ({ error: message }),
};

export function startOllamaFake(): Promise<FakeProvider> {
  return startFake(ollamaWire);
}
