import { chatCompletion, chatCompletionStream, type ChatCompletionsDialect } from './chatCompletions.js';
import { startFake, type FakeProvider, type WireFormat } from './server.js';

// xAI: @ai-sdk/xai@3's default model (`xai(id)`) is its chat model, so grok-* goes to POST
// /v1/chat/completions (the Responses API is only `xai.responses(id)`). Tool calls stream whole,
// reasoning models (grok-3-mini) send `reasoning_content`, and errors are `{code, error}`.

const XAI: ChatCompletionsDialect = { wholeToolCalls: true, reasoningOutsideCompletion: true };

export const xaiWire: WireFormat = {
  name: 'xai',
  wantsStream: (request) => request.body?.stream === true,
  json: (answer, request) => chatCompletion(answer, request, XAI),
  stream: (answer, request) => chatCompletionStream(answer, request, XAI),
  errorBody: (status, message) => ({ code: status === 429 ? 'Too many requests' : 'Internal error', error: message }),
};

export function startXaiFake(): Promise<FakeProvider> {
  return startFake(xaiWire);
}
