import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ModelContext } from '../../src/models/context.js';
import { resolveModel } from '../../src/models/resolveModel.js';
import { userPrompt } from './helpers.js';

// Records which provider SDKs get imported, and how often each builds a provider.
const seen = vi.hoisted(() => ({ imported: new Set<string>(), created: new Map<string, number>() }));

function spied<T extends Record<string, unknown>>(name: string, original: T, create: keyof T): T {
  seen.imported.add(name);
  const real = original[create] as (...args: unknown[]) => unknown;
  return {
    ...original,
    [create]: (...args: unknown[]) => {
      seen.created.set(name, (seen.created.get(name) ?? 0) + 1);
      return real(...args);
    },
  };
}

vi.mock('@ai-sdk/google', async (original) => spied('google', await original<Record<string, unknown>>(), 'createGoogleGenerativeAI'));
vi.mock('@ai-sdk/anthropic', async (original) => spied('anthropic', await original<Record<string, unknown>>(), 'createAnthropic'));
vi.mock('@ai-sdk/openai', async (original) => spied('openai', await original<Record<string, unknown>>(), 'createOpenAI'));
vi.mock('@ai-sdk/xai', async (original) => spied('xai', await original<Record<string, unknown>>(), 'createXai'));
vi.mock('@ai-sdk/openai-compatible', async (original) =>
  spied('openai-compatible', await original<Record<string, unknown>>(), 'createOpenAICompatible'),
);
vi.mock('ollama-ai-provider-v2', async (original) => spied('ollama', await original<Record<string, unknown>>(), 'createOllama'));

const context: ModelContext = { agentName: 'Skeptic', subagents: [] };
const ENV = {
  GOOGLE_GENERATIVE_AI_API_KEY: 'g',
  ANTHROPIC_API_KEY: 'a',
  OPENAI_API_KEY: 'o',
  XAI_API_KEY: 'x',
  OPENAI_COMPATIBLE_LMSTUDIO_BASE_URL: 'http://127.0.0.1:1/v1',
};
const IDS = ['gemini-2.5-flash', 'claude-sonnet-4', 'gpt-5-mini', 'grok-4', 'ollama/llama3.2', 'openai-compatible:lmstudio/qwen', 'scripted'];

describe('provider SDKs load lazily', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('are not imported by resolving models, nor by reading their identity', () => {
    for (const id of IDS) {
      const model = resolveModel(id, context, ENV);
      expect(model.provider).toBeTruthy();
      expect(model.modelId).toBeTruthy();
    }
    expect([...seen.imported]).toEqual([]);
  });

  it('are not imported by a model whose key is missing, even when it is called', async () => {
    await expect(resolveModel('grok-4', context, {}).doGenerate({ prompt: userPrompt('hi') })).rejects.toThrow('XAI_API_KEY is not set');
    expect(seen.imported.has('xai')).toBe(false);
  });

  it('imports only the called model’s SDK, and builds it once for concurrent first calls', async () => {
    const urls: string[] = [];
    vi.stubGlobal('fetch', (url: string) => {
      urls.push(String(url));
      return Promise.reject(new Error('request captured'));
    });
    const model = resolveModel('claude-sonnet-4', context, ENV);
    const calls = [model.doGenerate({ prompt: userPrompt('one') }), model.doStream({ prompt: userPrompt('two') }), model.doGenerate({ prompt: userPrompt('three') })];
    for (const call of calls) await expect(call).rejects.toThrow('request captured');
    expect(urls).toHaveLength(3);
    expect([...seen.imported]).toEqual(['anthropic']);
    expect(seen.created.get('anthropic')).toBe(1);
  });
});
