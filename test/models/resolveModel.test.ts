import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import type { ModelContext } from '../../src/models/context.js';
import { ModelConfigError } from '../../src/models/errors.js';
import { providerOf, resolveModel } from '../../src/models/resolveModel.js';
import { userPrompt } from './helpers.js';

const context: ModelContext = { agentName: 'Skeptic', subagents: [] };
const KEYS = { GOOGLE_GENERATIVE_AI_API_KEY: 'g', ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o', XAI_API_KEY: 'x' };

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('resolveModel', () => {
  it.each([
    ['gemini-2.5-flash', 'google.generative-ai', 'gemini-2.5-flash'],
    ['claude-sonnet-4', 'anthropic.messages', 'claude-sonnet-4'],
    ['gpt-5-mini', 'openai.responses', 'gpt-5-mini'],
    ['o3-mini', 'openai.responses', 'o3-mini'],
    ['o1', 'openai.responses', 'o1'],
    ['grok-4', 'xai.chat', 'grok-4'],
    ['ollama/llama3.2', 'ollama.responses', 'llama3.2'],
    ['openai-compatible:lmstudio/qwen/qwen3-4b', 'lmstudio.chat', 'qwen/qwen3-4b'],
    ['scripted', 'scripted', 'scripted'],
    ['scripted/fast', 'scripted', 'scripted'],
  ])('maps %s to provider %s', (id, provider, modelId) => {
    const model = resolveModel(id, context, { ...KEYS, OPENAI_COMPATIBLE_LMSTUDIO_BASE_URL: 'http://127.0.0.1:1/v1' });
    expect(model.provider).toBe(provider);
    expect(model.modelId).toBe(modelId);
  });

  it('keeps the provider identity when the key is missing', () => {
    expect(resolveModel('claude-sonnet-4', context, {}).provider).toBe('anthropic.messages');
  });

  it('does not throw at resolve time when the key is missing', () => {
    expect(() => resolveModel('claude-sonnet-4', context, {})).not.toThrow();
  });

  it('fails at the first call with a message naming the agent, the variable and --offline', async () => {
    const model = resolveModel('claude-sonnet-4', context, {});
    const call = model.doGenerate({ prompt: userPrompt('hi') });
    await expect(call).rejects.toBeInstanceOf(ModelConfigError);
    await expect(call).rejects.toThrow(
      "Agent 'Skeptic' uses claude-sonnet-4 but ANTHROPIC_API_KEY is not set. Set it in the environment or a .env file, or run with --offline to use the built-in scripted model.",
    );
  });

  it('fails at the first streaming call too when the key is missing', async () => {
    const model = resolveModel('grok-4', context, {});
    await expect(model.doStream({ prompt: userPrompt('hi') })).rejects.toThrow(/XAI_API_KEY is not set.*--offline/);
  });

  it('names both Google key variables when neither is set', async () => {
    const model = resolveModel('gemini-2.5-flash', context, {});
    await expect(model.doGenerate({ prompt: userPrompt('hi') })).rejects.toThrow('GOOGLE_GENERATIVE_AI_API_KEY or GEMINI_API_KEY is not set');
  });

  it.each([
    ['gemini-2.5-flash', { GEMINI_API_KEY: 'gemini-key' }, 'x-goog-api-key', 'gemini-key'],
    ['claude-sonnet-4', { ANTHROPIC_API_KEY: 'anthropic-key' }, 'x-api-key', 'anthropic-key'],
    ['gpt-5-mini', { OPENAI_API_KEY: 'openai-key' }, 'authorization', 'Bearer openai-key'],
  ])('sends the key for %s from the env it was given', async (id, env, header, value) => {
    const seen: Headers[] = [];
    vi.stubGlobal('fetch', (_url: string, init: RequestInit) => {
      seen.push(new Headers(init.headers));
      return Promise.reject(new Error('request captured'));
    });
    try {
      await expect(resolveModel(id, context, env).doGenerate({ prompt: userPrompt('hi') })).rejects.toThrow('request captured');
    } finally {
      vi.unstubAllGlobals();
    }
    expect(seen[0]?.get(header)).toBe(value);
  });

  it('fails at the first call when an openai-compatible server has no base URL', async () => {
    const model = resolveModel('openai-compatible:my-box/qwen', context, {});
    await expect(model.doGenerate({ prompt: userPrompt('hi') })).rejects.toThrow(/OPENAI_COMPATIBLE_MY_BOX_BASE_URL is not set.*--offline/);
  });

  it('explains an unreachable Ollama server with its URL and --offline', async () => {
    const port = await closedPort();
    const model = resolveModel('ollama/llama3.2', context, { OLLAMA_BASE_URL: `http://127.0.0.1:${port}/` });
    const call = model.doGenerate({ prompt: userPrompt('hi') });
    await expect(call).rejects.toBeInstanceOf(ModelConfigError);
    await expect(call).rejects.toThrow(
      `Agent 'Skeptic' uses ollama/llama3.2 but no Ollama server answers at http://127.0.0.1:${port}/api. Start it (ollama serve), set OLLAMA_BASE_URL, or run with --offline`,
    );
  });

  it('explains an unreachable openai-compatible server with its URL and --offline', async () => {
    const port = await closedPort();
    const baseURL = `http://127.0.0.1:${port}/v1`;
    const model = resolveModel('openai-compatible:local/qwen', context, { OPENAI_COMPATIBLE_LOCAL_BASE_URL: baseURL });
    await expect(model.doGenerate({ prompt: userPrompt('hi') })).rejects.toThrow(`no server answers at ${baseURL}`);
  });

  it('rejects an unknown prefix and lists the supported ones', () => {
    expect(() => resolveModel('llama-3', context, {})).toThrow(
      /Unknown model "llama-3" for agent 'Skeptic'\. Supported model ids: gemini-\*, claude-\*, gpt-\*, .*grok-\*, ollama\/<model>, openai-compatible:<name>\/<model>, local:<path-to-model\.gguf>, scripted\./,
    );
  });

  it('rejects an openai-compatible id without a model name', () => {
    expect(() => resolveModel('openai-compatible:lmstudio', context, {})).toThrow(ModelConfigError);
  });
});

describe('providerOf', () => {
  it.each([
    ['gemini-2.5-pro', 'google'],
    ['claude-opus-4', 'anthropic'],
    ['gpt-4o', 'openai'],
    ['o4-mini', 'openai'],
    ['grok-3', 'xai'],
    ['ollama/qwen3', 'ollama'],
    ['openai-compatible:vllm/llama', 'openai-compatible'],
    ['scripted', 'scripted'],
  ])('names the family of %s as %s', (id, family) => {
    expect(providerOf(id)).toBe(family);
  });

  it('throws for an unknown id', () => {
    expect(() => providerOf('mistral-large')).toThrow(/Unknown model "mistral-large"/);
  });
});
