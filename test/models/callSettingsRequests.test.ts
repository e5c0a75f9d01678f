import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { createXai } from '@ai-sdk/xai';
import { createOllama } from 'ollama-ai-provider-v2';
import { describe, expect, it } from 'vitest';
import type { GenerateContentConfig } from '../../src/config/schema.js';
import { callSettingsFor } from '../../src/models/callSettings.js';
import type { ProviderFamily } from '../../src/config/modelIds.js';

// The mapped settings go through each real SDK, and the request it would send is checked: this
// proves the providerOptions keys are the ones each SDK reads (a wrong key is silently dropped).

type Fetch = typeof globalThis.fetch;

const MODELS: Record<Exclude<ProviderFamily, 'scripted' | 'local'>, (fetch: Fetch) => LanguageModelV3> = {
  google: (fetch) => createGoogleGenerativeAI({ apiKey: 'k', fetch })('gemini-2.5-flash'),
  anthropic: (fetch) => createAnthropic({ apiKey: 'k', fetch })('claude-sonnet-4-5'),
  openai: (fetch) => createOpenAI({ apiKey: 'k', fetch }).responses('gpt-5-mini'),
  xai: (fetch) => createXai({ apiKey: 'k', fetch })('grok-4'),
  ollama: (fetch) => createOllama({ baseURL: 'http://127.0.0.1:1/api', fetch })('qwen3'),
  'openai-compatible': (fetch) => createOpenAICompatible({ name: 'lmstudio', baseURL: 'http://127.0.0.1:1/v1', fetch }).chatModel('qwen3'),
};

/** The JSON body the SDK sends for `config`; the fake server refuses it, which ends the call. */
async function requestBody(family: keyof typeof MODELS, config: GenerateContentConfig): Promise<Record<string, unknown>> {
  let body: Record<string, unknown> | undefined;
  const fetch: Fetch = async (_url, init) => {
    body = JSON.parse(String(init?.body)) as Record<string, unknown>;
    return new Response('{"error":{"message":"refused by the test"}}', { status: 400, headers: { 'content-type': 'application/json' } });
  };
  const { settings } = callSettingsFor(family, config);
  try {
    await MODELS[family](fetch).doGenerate({ ...settings, prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] });
  } catch {
    // Expected: only the request matters.
  }
  if (!body) throw new Error(`the ${family} SDK sent no request`);
  return body;
}

describe('mapped settings on the wire', () => {
  it('reach Gemini as generationConfig and safetySettings', async () => {
    const body = await requestBody('google', {
      topK: 40,
      seed: 7,
      safetySettings: [{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_ONLY_HIGH' }],
      thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
    });

    expect(body.generationConfig).toMatchObject({ topK: 40, seed: 7, thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } });
    expect(body.safetySettings).toEqual([{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_ONLY_HIGH' }]);
  });

  it('reach Claude as a thinking budget', async () => {
    const body = await requestBody('anthropic', { maxOutputTokens: 1000, thinkingConfig: { thinkingBudget: 2048 } });

    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
  });

  it('reach Claude as top_k and stop sequences when it does not think', async () => {
    const body = await requestBody('anthropic', { topK: 20, stopSequences: ['END'] });

    expect(body).toMatchObject({ top_k: 20, stop_sequences: ['END'] });
  });

  it('reach Claude as adaptive thinking with an effort', async () => {
    const body = await requestBody('anthropic', { thinkingConfig: { thinkingLevel: 'high' } });

    expect(body).toMatchObject({ thinking: { type: 'adaptive' }, output_config: { effort: 'high' } });
  });

  it('reach OpenAI as a reasoning effort with a summary', async () => {
    const body = await requestBody('openai', { maxOutputTokens: 900, thinkingConfig: { thinkingLevel: 'low', includeThoughts: true } });

    expect(body).toMatchObject({ max_output_tokens: 900, reasoning: { effort: 'low', summary: 'auto' } });
  });

  it('reach xAI as a seed and a reasoning effort', async () => {
    const body = await requestBody('xai', { seed: 3, thinkingConfig: { thinkingLevel: 'high' } });

    expect(body).toMatchObject({ seed: 3, reasoning_effort: 'high' });
  });

  it('reach Ollama as its options object and think', async () => {
    const body = await requestBody('ollama', { temperature: 0.6, topK: 30, maxOutputTokens: 256, stopSequences: ['###'], seed: 11, thinkingConfig: { includeThoughts: true } });

    expect(body).toMatchObject({ think: true, options: { temperature: 0.6, top_k: 30, num_predict: 256, stop: ['###'], seed: 11 } });
  });

  it('reach an OpenAI-compatible server as penalties and a reasoning effort', async () => {
    const body = await requestBody('openai-compatible', { presencePenalty: 0.3, frequencyPenalty: 0.4, seed: 5, thinkingConfig: { thinkingLevel: 'low' } });

    expect(body).toMatchObject({ presence_penalty: 0.3, frequency_penalty: 0.4, seed: 5, reasoning_effort: 'low' });
  });
});
