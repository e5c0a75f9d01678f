import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { CloudFamily } from './modelIds.js';

// The provider SDKs together take ~200 ms to import, which an offline run must not pay. So each is
// imported by the first call to one of its models, and the `provider` id its models report is
// written out here, for a model to be named without its SDK. test/models/providers.test.ts checks
// that every written-out id equals the one the SDK reports.

export interface CloudProvider {
  /** Environment variables holding the key, in order of preference. */
  keys: readonly string[];
  /** The `provider` of the SDK's models. */
  provider: string;
  /** Imports the SDK and builds the model. */
  load(apiKey: string | undefined, model: string): Promise<LanguageModelV3>;
}

export const CLOUD: Readonly<Record<CloudFamily, CloudProvider>> = {
  google: {
    keys: ['GOOGLE_GENERATIVE_AI_API_KEY', 'GEMINI_API_KEY'],
    provider: 'google.generative-ai',
    load: async (apiKey, model) => (await import('@ai-sdk/google')).createGoogleGenerativeAI({ apiKey })(model),
  },
  anthropic: {
    keys: ['ANTHROPIC_API_KEY'],
    provider: 'anthropic.messages',
    load: async (apiKey, model) => (await import('@ai-sdk/anthropic')).createAnthropic({ apiKey })(model),
  },
  openai: {
    keys: ['OPENAI_API_KEY'],
    provider: 'openai.responses',
    load: async (apiKey, model) => (await import('@ai-sdk/openai')).createOpenAI({ apiKey }).responses(model),
  },
  xai: {
    keys: ['XAI_API_KEY'],
    provider: 'xai.chat',
    load: async (apiKey, model) => (await import('@ai-sdk/xai')).createXai({ apiKey })(model),
  },
};

export const OLLAMA_PROVIDER = 'ollama.responses';

/** `baseURL` ends in /api. */
export async function loadOllama(baseURL: string, model: string): Promise<LanguageModelV3> {
  const { createOllama } = await import('ollama-ai-provider-v2');
  return createOllama({ baseURL })(model);
}

/** The `provider` of an openai-compatible server's chat models. */
export function openAICompatibleProvider(server: string): string {
  return `${server}.chat`;
}

export async function loadOpenAICompatible(server: string, baseURL: string, apiKey: string | undefined, model: string): Promise<LanguageModelV3> {
  const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
  return createOpenAICompatible({ name: server, baseURL, apiKey }).chatModel(model);
}
