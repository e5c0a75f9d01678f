import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ModelContext } from '../../src/models/context.js';
import { resolveModel } from '../../src/models/resolveModel.js';
import { userPrompt } from './helpers.js';

// Every provider can be pointed at another server (a proxy, a gateway, a test's fake) through
// the environment it is given. test/models/wire/ proves each one end to end against a fake.

const context: ModelContext = { agentName: 'Skeptic', subagents: [] };

async function requestedUrl(id: string, env: NodeJS.ProcessEnv): Promise<string> {
  const urls: string[] = [];
  vi.stubGlobal('fetch', (url: string) => {
    urls.push(String(url));
    return Promise.reject(new Error('request captured'));
  });
  await expect(resolveModel(id, context, env).doGenerate({ prompt: userPrompt('hi') })).rejects.toThrow();
  return urls[0] ?? '(no request)';
}

describe('base URLs from the environment', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.unstubAllEnvs();
  });

  it.each([
    ['gemini-2.5-flash', { GEMINI_API_KEY: 'k', GOOGLE_GENERATIVE_AI_BASE_URL: 'http://gateway.test/google/v1beta' }, 'http://gateway.test/google/v1beta/models/gemini-2.5-flash:generateContent'],
    ['claude-sonnet-4-5', { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'http://gateway.test/anthropic/v1' }, 'http://gateway.test/anthropic/v1/messages'],
    ['gpt-5-mini', { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://gateway.test/openai/v1' }, 'http://gateway.test/openai/v1/responses'],
    ['grok-4', { XAI_API_KEY: 'k', XAI_BASE_URL: 'http://gateway.test/xai/v1/' }, 'http://gateway.test/xai/v1/chat/completions'],
    ['ollama/qwen3', { OLLAMA_BASE_URL: 'http://gateway.test/ollama' }, 'http://gateway.test/ollama/api/chat'],
    ['openai-compatible:vllm/qwen3', { OPENAI_COMPATIBLE_VLLM_BASE_URL: 'http://gateway.test/vllm/v1' }, 'http://gateway.test/vllm/v1/chat/completions'],
  ])('send %s requests to the base URL in its environment variable', async (id, env, url) => {
    expect(await requestedUrl(id, env)).toBe(url);
  });

  it.each([
    ['gemini-2.5-flash', 'GOOGLE_GENERATIVE_AI_BASE_URL', 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent'],
    ['claude-sonnet-4-5', 'ANTHROPIC_BASE_URL', 'https://api.anthropic.com/v1/messages'],
    ['gpt-5-mini', 'OPENAI_BASE_URL', 'https://api.openai.com/v1/responses'],
    ['grok-4', 'XAI_BASE_URL', 'https://api.x.ai/v1/chat/completions'],
  ])('leave %s on its public API when %s is empty, whatever the process environment says', async (id, variable, url) => {
    vi.stubEnv(variable, 'http://process-env.test/v1');
    const keys = { GEMINI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k', OPENAI_API_KEY: 'k', XAI_API_KEY: 'k' };

    expect(await requestedUrl(id, { ...keys, [variable]: '' })).toBe(url);
  });
});
