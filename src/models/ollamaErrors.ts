import { APICallError, type LanguageModelV3 } from '@ai-sdk/provider';
import { mapCallErrors } from './guards.js';

// Ollama answers an error as {"error": "<message>"}. ollama-ai-provider-v2 expects OpenAI's
// {"error": {"message": …}}, fails to read it and falls back to the HTTP status text, so a
// missing model would say only "Not Found". This puts Ollama's own words back ("model 'qwen3'
// not found, try pulling it first"), keeping everything else about the error as it was.

function ollamaMessage(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    const message = (parsed as { error?: unknown } | null)?.error;
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

function withOllamaMessage(error: unknown): unknown {
  if (!APICallError.isInstance(error)) return error;
  const message = ollamaMessage(error.responseBody);
  if (message === undefined) return error;
  return new APICallError({
    message,
    url: error.url,
    requestBodyValues: error.requestBodyValues,
    statusCode: error.statusCode,
    responseHeaders: error.responseHeaders,
    responseBody: error.responseBody,
    isRetryable: error.isRetryable,
    data: error.data,
    cause: error,
  });
}

export function withOllamaErrorMessages(model: LanguageModelV3): LanguageModelV3 {
  return mapCallErrors(model, withOllamaMessage);
}
