import { APICallError, type LanguageModelV3 } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { withOllamaErrorMessages } from '../../src/models/ollamaErrors.js';
import { userPrompt } from './helpers.js';

function failingWith(error: unknown): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: 'ollama.responses',
    modelId: 'qwen3:8b',
    supportedUrls: {},
    doGenerate: () => Promise.reject(error),
    doStream: () => Promise.reject(error),
  };
}

function notFound(responseBody: string): APICallError {
  return new APICallError({ message: 'Not Found', url: 'http://127.0.0.1:11434/api/chat', requestBodyValues: {}, statusCode: 404, responseBody });
}

describe('withOllamaErrorMessages', () => {
  it('replaces the HTTP status text with the message in Ollama’s {"error": …} body, keeping the status', async () => {
    const model = withOllamaErrorMessages(failingWith(notFound(`{"error":"model 'qwen3:8b' not found, try pulling it first"}`)));

    const error: unknown = await Promise.resolve(model.doStream({ prompt: userPrompt('hi') })).catch((caught: unknown) => caught);

    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ message: "model 'qwen3:8b' not found, try pulling it first", statusCode: 404, isRetryable: false });
  });

  it('leaves an error whose body is not Ollama’s as it was', async () => {
    const original = notFound('<html>proxy error</html>');

    await expect(withOllamaErrorMessages(failingWith(original)).doGenerate({ prompt: userPrompt('hi') })).rejects.toBe(original);
  });

  it('leaves errors that are not HTTP errors as they were', async () => {
    const original = new TypeError('fetch failed');

    await expect(withOllamaErrorMessages(failingWith(original)).doGenerate({ prompt: userPrompt('hi') })).rejects.toBe(original);
  });
});
