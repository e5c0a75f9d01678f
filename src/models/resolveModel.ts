import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { createXai } from '@ai-sdk/xai';
import { createOllama } from 'ollama-ai-provider-v2';
import type { ModelContext } from './context.js';
import { unconfiguredModel, withUnreachableHint } from './guards.js';
import { parseModelId, unknownModelError, type CloudFamily } from './modelIds.js';
import { createScriptedModel } from './scripted/createScriptedModel.js';

export { providerOf } from './modelIds.js';

interface CloudProvider {
  /** Environment variables holding the key, in order of preference. */
  keys: string[];
  create(apiKey: string | undefined, model: string): LanguageModelV3;
}

const CLOUD: Record<CloudFamily, CloudProvider> = {
  google: {
    keys: ['GOOGLE_GENERATIVE_AI_API_KEY', 'GEMINI_API_KEY'],
    create: (apiKey, model) => createGoogleGenerativeAI({ apiKey })(model),
  },
  anthropic: { keys: ['ANTHROPIC_API_KEY'], create: (apiKey, model) => createAnthropic({ apiKey })(model) },
  openai: { keys: ['OPENAI_API_KEY'], create: (apiKey, model) => createOpenAI({ apiKey }).responses(model) },
  xai: { keys: ['XAI_API_KEY'], create: (apiKey, model) => createXai({ apiKey })(model) },
};

const DEFAULT_OLLAMA_URL = 'http://localhost:11434';
const OFFLINE_HINT = 'or run with --offline to use the built-in scripted model.';
const NON_ENV_CHARS = /[^A-Z0-9]+/g;
const TRAILING_SLASHES = /\/+$/;

/**
 * The language model for a model id. Never fails for missing keys or servers: those fail at the
 * first call with a ModelConfigError that says what to set. Throws only for an unknown id.
 */
export function resolveModel(id: string, context: ModelContext, env: NodeJS.ProcessEnv = process.env): LanguageModelV3 {
  const parsed = parseModelId(id);
  if (!parsed) throw unknownModelError(id, context.agentName);
  const agent = context.agentName;
  switch (parsed.family) {
    case 'scripted':
      return createScriptedModel(context);
    case 'ollama': {
      const root = (env.OLLAMA_BASE_URL || DEFAULT_OLLAMA_URL).replace(TRAILING_SLASHES, '');
      const baseURL = root.endsWith('/api') ? root : `${root}/api`;
      return withUnreachableHint(
        createOllama({ baseURL })(parsed.model),
        `Agent '${agent}' uses ${id} but no Ollama server answers at ${baseURL}. Start it (ollama serve), set OLLAMA_BASE_URL, ${OFFLINE_HINT}`,
      );
    }
    case 'openai-compatible': {
      const prefix = `OPENAI_COMPATIBLE_${parsed.server.toUpperCase().replace(NON_ENV_CHARS, '_')}`;
      const baseURL = env[`${prefix}_BASE_URL`] || undefined;
      // Without a base URL the model is built only to carry its provider id; it is never called.
      const model = createOpenAICompatible({ name: parsed.server, baseURL: baseURL ?? '', apiKey: env[`${prefix}_API_KEY`] || undefined })
        .chatModel(parsed.model);
      if (baseURL === undefined) {
        return unconfiguredModel(
          model,
          `Agent '${agent}' uses ${id} but ${prefix}_BASE_URL is not set. Set it to the server's URL (e.g. http://localhost:1234/v1) in the environment or a .env file, ${OFFLINE_HINT}`,
        );
      }
      return withUnreachableHint(model, `Agent '${agent}' uses ${id} but no server answers at ${baseURL}. Start it, fix ${prefix}_BASE_URL, ${OFFLINE_HINT}`);
    }
    default: {
      const provider = CLOUD[parsed.family];
      const apiKey = provider.keys.map((name) => env[name]).find((value) => value);
      const model = provider.create(apiKey, parsed.model);
      if (apiKey) return model;
      return unconfiguredModel(
        model,
        `Agent '${agent}' uses ${id} but ${provider.keys.join(' or ')} is not set. Set it in the environment or a .env file, ${OFFLINE_HINT}`,
      );
    }
  }
}
