import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { CloudFamily } from '../config/modelIds.js';

// The provider SDKs together take ~200 ms to import, which an offline run must not pay. So each is
// imported by the first call to one of its models, and the `provider` id its models report is
// written out here, for a model to be named without its SDK. test/models/providers.test.ts checks
// that every written-out id equals the one the SDK reports.

export interface CloudProvider {
  /** Environment variables holding the key, in order of preference. */
  keys: readonly string[];
  /**
   * Environment variable pointing the SDK at another server (a proxy, a gateway, a test's fake):
   * the URL the SDK appends its API paths to, as its own baseURL option takes it.
   */
  baseUrlVar: string;
  /**
   * The public API, passed when the variable is unset: the Anthropic and OpenAI SDKs would
   * otherwise read process.env themselves, ignoring the environment the model was resolved with
   * and breaking on a variable that is set but empty.
   */
  defaultBaseUrl: string;
  /** The `provider` of the SDK's models. */
  provider: string;
  /** Imports the SDK and builds the model. */
  load(apiKey: string | undefined, model: string, baseURL?: string): Promise<LanguageModelV3>;
}

export const CLOUD: Readonly<Record<CloudFamily, CloudProvider>> = {
  google: {
    keys: ['GOOGLE_GENERATIVE_AI_API_KEY', 'GEMINI_API_KEY'],
    baseUrlVar: 'GOOGLE_GENERATIVE_AI_BASE_URL',
    defaultBaseUrl: 'https://generativelanguage.googleapis.com/v1beta',
    provider: 'google.generative-ai',
    load: async (apiKey, model, baseURL) => (await import('@ai-sdk/google')).createGoogleGenerativeAI({ apiKey, baseURL })(model),
  },
  anthropic: {
    keys: ['ANTHROPIC_API_KEY'],
    baseUrlVar: 'ANTHROPIC_BASE_URL',
    defaultBaseUrl: 'https://api.anthropic.com/v1',
    provider: 'anthropic.messages',
    load: async (apiKey, model, baseURL) => (await import('@ai-sdk/anthropic')).createAnthropic({ apiKey, baseURL })(model),
  },
  openai: {
    keys: ['OPENAI_API_KEY'],
    baseUrlVar: 'OPENAI_BASE_URL',
    defaultBaseUrl: 'https://api.openai.com/v1',
    provider: 'openai.responses',
    load: async (apiKey, model, baseURL) => (await import('@ai-sdk/openai')).createOpenAI({ apiKey, baseURL }).responses(model),
  },
  xai: {
    keys: ['XAI_API_KEY'],
    baseUrlVar: 'XAI_BASE_URL',
    defaultBaseUrl: 'https://api.x.ai/v1',
    provider: 'xai.chat',
    load: async (apiKey, model, baseURL) => (await import('@ai-sdk/xai')).createXai({ apiKey, baseURL })(model),
  },
};

/** xAI serves its native web search only on its Responses API, so agents with web_search run there. */
export const XAI_RESPONSES: CloudProvider = {
  ...CLOUD.xai,
  provider: 'xai.responses',
  load: async (apiKey, model, baseURL) => (await import('@ai-sdk/xai')).createXai({ apiKey, baseURL }).responses(model),
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

export async function loadOpenAICompatible(
  server: string,
  baseURL: string,
  apiKey: string | undefined,
  model: string,
  headers?: Record<string, string>,
): Promise<LanguageModelV3> {
  const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
  // Both are off by default in the SDK, for servers too old to know them. Without includeUsage a
  // streamed call reports no tokens at all; without structured outputs an outputSchema is never
  // sent, only "answer in JSON". vLLM, llama.cpp, LM Studio, Ollama and OpenRouter accept both.
  return createOpenAICompatible({ name: server, baseURL, apiKey, headers, includeUsage: true, supportsStructuredOutputs: true }).chatModel(model);
}
