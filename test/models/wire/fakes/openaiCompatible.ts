import { chatCompletion, chatCompletionStream, type ChatCompletionsDialect } from './chatCompletions.js';
import { startFake, type FakeProvider, type WireFormat } from './server.js';

// Any OpenAI-compatible server (vLLM, llama.cpp server, LM Studio, OpenRouter): POST
// /v1/chat/completions as OpenAI defined it, tool call arguments streamed in pieces by index,
// reasoning as `reasoning_content` (vLLM's and llama.cpp's reasoning parsers), errors as
// `{error: {message, type, code}}`.

const OPENAI_STYLE: ChatCompletionsDialect = { wholeToolCalls: false, reasoningOutsideCompletion: false };

export const openaiCompatibleWire: WireFormat = {
  name: 'openai-compatible',
  wantsStream: (request) => request.body?.stream === true,
  json: (answer, request) => chatCompletion(answer, request, OPENAI_STYLE),
  stream: (answer, request) => chatCompletionStream(answer, request, OPENAI_STYLE),
  errorBody: (status, message) => ({ error: { message, type: status === 429 ? 'rate_limit_error' : 'server_error', code: status } }),
};

export function startOpenAICompatibleFake(): Promise<FakeProvider> {
  return startFake(openaiCompatibleWire);
}
