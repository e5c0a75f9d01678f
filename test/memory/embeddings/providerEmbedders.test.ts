import { afterEach, describe, expect, it } from 'vitest';
import { resolveEmbedder } from '../../../src/memory/embeddings/resolveEmbedder.js';
import { ModelConfigError } from '../../../src/models/errors.js';
import type { FakeProvider } from '../../models/wire/fakes/server.js';
import { fakeVector, startGeminiEmbeddingsFake, startOllamaEmbeddingsFake, startOpenAIEmbeddingsFake } from './embeddingFakes.js';

// Provider embedders talking HTTP to loopback fakes of each provider's embedding API.

let fake: FakeProvider | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function unit(text: string): number[] {
  const vector = fakeVector(text);
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

/** The vectors, each value replaced by its difference from the unit fake vector of its text (all ~0). */
function errors(vectors: readonly Float32Array[], texts: readonly string[]): number[] {
  expect(vectors).toHaveLength(texts.length);
  return vectors.flatMap((vector, i) => [...vector].map((value, j) => Math.abs(value - unit(texts[i]!)[j]!)));
}

function expectUnitFakes(vectors: readonly Float32Array[], texts: readonly string[]): void {
  expect(Math.max(...errors(vectors, texts))).toBeLessThan(1e-6);
}

describe('provider embedders on the wire', () => {
  it('embeds one text with gemini-embedding-001 through embedContent, sending the key, and returns a unit vector', async () => {
    fake = (await startGeminiEmbeddingsFake()).answer({});
    const embedder = resolveEmbedder('gemini-embedding-001', { GEMINI_API_KEY: 'test-key', GOOGLE_GENERATIVE_AI_BASE_URL: `${fake.url}/v1beta` });
    expect([embedder.model, embedder.dimensions]).toEqual(['gemini-embedding-001', 3072]);
    const vectors = await embedder.embed(['I live in Paris.']);
    expectUnitFakes(vectors, ['I live in Paris.']);
    expect(fake.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1beta/models/gemini-embedding-001:embedContent',
      headers: { 'x-goog-api-key': 'test-key' },
      body: { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'I live in Paris.' }] } },
    });
  });

  it('embeds several texts with Gemini in one batchEmbedContents request, in order', async () => {
    fake = (await startGeminiEmbeddingsFake()).answer({});
    const texts = ['a', 'bb', 'ccc'];
    const embedder = resolveEmbedder('gemini-embedding-001', { GOOGLE_GENERATIVE_AI_API_KEY: 'k', GOOGLE_GENERATIVE_AI_BASE_URL: `${fake.url}/v1beta` });
    expectUnitFakes(await embedder.embed(texts), texts);
    expect(fake.requests.map((request) => request.path)).toEqual(['/v1beta/models/gemini-embedding-001:batchEmbedContents']);
  });

  it('embeds with OpenAI text-embedding-3-small through /embeddings with a bearer key', async () => {
    fake = (await startOpenAIEmbeddingsFake()).answer({});
    const texts = ['one', 'three'];
    const embedder = resolveEmbedder('text-embedding-3-small', { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${fake.url}/v1` });
    expect(embedder.dimensions).toBe(1536);
    expectUnitFakes(await embedder.embed(texts), texts);
    expect(fake.requests[0]).toMatchObject({
      path: '/v1/embeddings',
      headers: { authorization: 'Bearer sk-test' },
      body: { model: 'text-embedding-3-small', input: texts },
    });
  });

  it('embeds with an Ollama model through /api/embed and learns its dimensions from the reply', async () => {
    fake = (await startOllamaEmbeddingsFake()).answer({});
    const embedder = resolveEmbedder('ollama/nomic-embed-text', { OLLAMA_BASE_URL: fake.url });
    expect(embedder.dimensions).toBe(0);
    expectUnitFakes(await embedder.embed(['hello']), ['hello']);
    expect(fake.requests[0]).toMatchObject({ path: '/api/embed', body: { model: 'nomic-embed-text', input: ['hello'] } });
    expect([embedder.model, embedder.dimensions]).toEqual(['ollama/nomic-embed-text', 3]);
  });

  it('embeds with an openai-compatible server named in the environment, sending its key', async () => {
    fake = (await startOpenAIEmbeddingsFake()).answer({});
    const embedder = resolveEmbedder('openai-compatible:lm-studio/nomic-embed', {
      OPENAI_COMPATIBLE_LM_STUDIO_BASE_URL: `${fake.url}/v1`,
      OPENAI_COMPATIBLE_LM_STUDIO_API_KEY: 'lm-key',
    });
    expectUnitFakes(await embedder.embed(['x']), ['x']);
    expect(fake.requests[0]).toMatchObject({ path: '/v1/embeddings', headers: { authorization: 'Bearer lm-key' }, body: { model: 'nomic-embed', input: ['x'] } });
  });

  it('takes an openai-compatible server from the project config, with its headers', async () => {
    fake = (await startOpenAIEmbeddingsFake()).answer({});
    const embedder = resolveEmbedder('openai-compatible:router/embed-1', { ROUTER_KEY: 'r-key' }, {
      router: { base_url: `${fake.url}/v1`, api_key_env: 'ROUTER_KEY', headers: { 'X-Title': 'Syndicate' } },
    });
    await embedder.embed(['x']);
    expect(fake.requests[0]?.headers).toMatchObject({ authorization: 'Bearer r-key', 'x-title': 'Syndicate' });
  });

  it('sends the headers of OPENAI_COMPATIBLE_<NAME>_HEADERS, as the server\'s models do', async () => {
    fake = (await startOpenAIEmbeddingsFake()).answer({});
    const embedder = resolveEmbedder('openai-compatible:router/embed-1', {
      OPENAI_COMPATIBLE_ROUTER_BASE_URL: `${fake.url}/v1`,
      OPENAI_COMPATIBLE_ROUTER_HEADERS: '{"X-Title":"Syndicate"}',
    });
    await embedder.embed(['x']);
    expect(fake.requests[0]?.headers).toMatchObject({ 'x-title': 'Syndicate' });
  });

  it('says what is wrong with OPENAI_COMPATIBLE_<NAME>_HEADERS at the first embed call', async () => {
    const embedder = resolveEmbedder('openai-compatible:router/embed-1', { OPENAI_COMPATIBLE_ROUTER_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_COMPATIBLE_ROUTER_HEADERS: '["X-Title"]' });
    await expect(embedder.embed(['x'])).rejects.toThrow(/OPENAI_COMPATIBLE_ROUTER_HEADERS is not a JSON object of string values/);
  });

  it('fails the first embed call, sending nothing, when the provider key is missing, naming the variables', async () => {
    const embedder = resolveEmbedder('gemini-embedding-001', {});
    const failure = embedder.embed(['x']);
    await expect(failure).rejects.toBeInstanceOf(ModelConfigError);
    await expect(failure).rejects.toThrow(/GOOGLE_GENERATIVE_AI_API_KEY or GEMINI_API_KEY, which is not set/);
    await expect(resolveEmbedder('text-embedding-3-large', {}).embed(['x'])).rejects.toThrow(/needs OPENAI_API_KEY/);
  });

  it('names the base URL variable when an openai-compatible server is not configured', async () => {
    await expect(resolveEmbedder('openai-compatible:lm-studio/m', {}).embed(['x'])).rejects.toThrow(/OPENAI_COMPATIBLE_LM_STUDIO_BASE_URL is not set/);
  });

  it('says how to start Ollama when nothing listens at its address', async () => {
    const closed = await startOllamaEmbeddingsFake();
    await closed.close();
    const failure = resolveEmbedder('ollama/nomic-embed-text', { OLLAMA_BASE_URL: closed.url }).embed(['x']);
    await expect(failure).rejects.toThrow(new RegExp(`no Ollama server answers at ${closed.url}/api\\. Start it \\(ollama serve\\)`));
  });

  it('passes the provider’s error message through', async () => {
    fake = (await startOpenAIEmbeddingsFake()).fail(400, 'input is too long');
    await expect(resolveEmbedder('text-embedding-3-small', { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `${fake.url}/v1` }).embed(['x'])).rejects.toThrow(/input is too long/);
  });

  it('sends nothing for an empty list', async () => {
    fake = await startOpenAIEmbeddingsFake();
    expect(await resolveEmbedder('text-embedding-3-small', { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `${fake.url}/v1` }).embed([])).toEqual([]);
    expect(fake.requests).toEqual([]);
  });
});

describe('resolveEmbedder', () => {
  it('uses the local USE-lite embedder when memory_embedding is absent or local', () => {
    expect([resolveEmbedder(undefined, {}).model, resolveEmbedder('local', {}).model, resolveEmbedder('use-lite-512', {}).model]).toEqual(['use-lite-512', 'use-lite-512', 'use-lite-512']);
  });

  it('refuses an unknown spec, listing what is supported', () => {
    expect(() => resolveEmbedder('claude-embed', {})).toThrow(/Unknown memory_embedding "claude-embed"\. Supported: local .*gemini-embedding-001.*ollama\/<model>/);
  });
});
