import { startFake, type FakeProvider, type RecordedRequest, type WireFormat } from '../../models/wire/fakes/server.js';

// Loopback fakes of the providers' embedding endpoints, served by the chat fakes' server. Each
// text gets the vector [3, 4, length of the text]: deterministic, not unit length (so tests see
// the embedder normalise), and different for texts of different lengths.

export function fakeVector(text: string): number[] {
  return [3, 4, text.length];
}

function unsupported(name: string): never {
  throw new Error(`fake ${name} embeddings never stream`);
}

// Gemini: :embedContent for one text, :batchEmbedContents for several.
const geminiEmbeddings: WireFormat = {
  name: 'gemini embeddings',
  wantsStream: () => false,
  json(_answer, request: RecordedRequest) {
    if (request.path.includes(':batchEmbedContents')) {
      return { embeddings: request.body.requests.map((entry: { content: { parts: Array<{ text: string }> } }) => ({ values: fakeVector(entry.content.parts[0]!.text) })) };
    }
    return { embedding: { values: fakeVector(request.body.content.parts[0].text) } };
  },
  stream: () => unsupported('gemini'),
  errorBody: (status, message) => ({ error: { code: status, message, status: 'INVALID_ARGUMENT' } }),
};

// OpenAI and every OpenAI-compatible server: POST /embeddings with `input` as a list.
const openAIEmbeddings: WireFormat = {
  name: 'openai embeddings',
  wantsStream: () => false,
  json: (_answer, request) => ({
    object: 'list',
    model: request.body.model,
    data: (request.body.input as string[]).map((text, index) => ({ object: 'embedding', index, embedding: fakeVector(text) })),
    usage: { prompt_tokens: 3, total_tokens: 3 },
  }),
  stream: () => unsupported('openai'),
  errorBody: (_status, message) => ({ error: { message, type: 'invalid_request_error', param: null, code: null } }),
};

// Ollama: POST /api/embed.
const ollamaEmbeddings: WireFormat = {
  name: 'ollama embeddings',
  wantsStream: () => false,
  json: (_answer, request) => ({
    model: request.body.model,
    embeddings: (request.body.input as string[]).map(fakeVector),
    total_duration: 1,
    load_duration: 1,
    prompt_eval_count: 3,
  }),
  stream: () => unsupported('ollama'),
  errorBody: (_status, message) => ({ error: message }),
};

export const startGeminiEmbeddingsFake = (): Promise<FakeProvider> => startFake(geminiEmbeddings);
export const startOpenAIEmbeddingsFake = (): Promise<FakeProvider> => startFake(openAIEmbeddings);
export const startOllamaEmbeddingsFake = (): Promise<FakeProvider> => startFake(ollamaEmbeddings);
