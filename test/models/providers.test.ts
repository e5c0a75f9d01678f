import type { LanguageModelV3 } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import type { ModelContext } from '../../src/models/context.js';
import { CLOUD, loadOllama, loadOpenAICompatible, OLLAMA_PROVIDER, openAICompatibleProvider } from '../../src/models/providers.js';
import { resolveModel } from '../../src/models/resolveModel.js';

// resolveModel names a model with written-out provider ids so that it imports no SDK. These tests
// build the real SDK models and check that the written-out ids are the ones the SDKs report.

const context: ModelContext = { agentName: 'Skeptic', subagents: [] };
const KEYS = { GOOGLE_GENERATIVE_AI_API_KEY: 'g', ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o', XAI_API_KEY: 'x' };

function identity(model: LanguageModelV3): { provider: string; modelId: string } {
  return { provider: model.provider, modelId: model.modelId };
}

describe('written-out provider ids', () => {
  it.each([
    ['google', 'gemini-2.5-flash'],
    ['anthropic', 'claude-sonnet-4'],
    ['openai', 'gpt-5-mini'],
    ['openai', 'o3-mini'],
    ['xai', 'grok-4'],
  ] as const)('match the %s SDK for %s, with and without a key', async (family, id) => {
    const real = await CLOUD[family].load('key', id);
    expect(real.provider).toBe(CLOUD[family].provider);
    expect(identity(resolveModel(id, context, KEYS))).toEqual(identity(real));
    expect(identity(resolveModel(id, context, {}))).toEqual(identity(real));
  });

  it('match the Ollama SDK', async () => {
    const real = await loadOllama('http://127.0.0.1:1/api', 'llama3.2');
    expect(real.provider).toBe(OLLAMA_PROVIDER);
    expect(identity(resolveModel('ollama/llama3.2', context, {}))).toEqual(identity(real));
  });

  it.each(['lmstudio', 'my-box'])('match the openai-compatible SDK for a server named %s, with and without a base URL', async (server) => {
    const real = await loadOpenAICompatible(server, 'http://127.0.0.1:1/v1', undefined, 'qwen/qwen3-4b');
    expect(real.provider).toBe(openAICompatibleProvider(server));
    const id = `openai-compatible:${server}/qwen/qwen3-4b`;
    const prefix = `OPENAI_COMPATIBLE_${server.toUpperCase().replace('-', '_')}`;
    expect(identity(resolveModel(id, context, { [`${prefix}_BASE_URL`]: 'http://127.0.0.1:1/v1' }))).toEqual(identity(real));
    expect(identity(resolveModel(id, context, {}))).toEqual(identity(real));
  });
});
