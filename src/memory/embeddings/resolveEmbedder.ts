import type { EmbeddingModelV3 } from '@ai-sdk/provider';
import type { ProvidersConfig } from '../../config/projectConfig.js';
import { ModelConfigError } from '../../models/errors.js';
import { parseModelId } from '../../config/modelIds.js';
import { compatibleServer, unreachableServer } from '../../models/openAICompatible.js';
import { CLOUD, type CloudProvider } from '../../models/providers.js';
import type { Embedder } from './embedder.js';
import { LOCAL_EMBEDDING_MODEL, localEmbedder } from './localEmbedder.js';
import { providerEmbedder } from './providerEmbedder.js';

// The embedder a syndicate's `memory_embedding:` names. Keys, base URLs and openai-compatible
// servers are found the way models find them (README "Environment"): the same variables, the same
// project config file, a variable winning over the file.

const LOCAL_SPECS: ReadonlySet<string> = new Set(['local', LOCAL_EMBEDDING_MODEL]);
// Native sizes. Gemini's is its full output; OpenAI's are the models' defaults.
const CLOUD_DIMENSIONS: Readonly<Record<string, number>> = {
  'gemini-embedding-001': 3072,
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};
const DEFAULT_OLLAMA_URL = 'http://localhost:11434';
const TRAILING_SLASHES = /\/+$/;
const OFFLINE_HINT = 'or remove memory_embedding to use the built-in local embedder';

const SUPPORTED = [
  `local (default: ${LOCAL_EMBEDDING_MODEL}, offline)`,
  'gemini-embedding-001',
  'text-embedding-3-small',
  'text-embedding-3-large',
  'ollama/<model>',
  'openai-compatible:<name>/<model>',
];

export function unknownEmbedderError(spec: string): ModelConfigError {
  return new ModelConfigError(`Unknown memory_embedding "${spec}". Supported: ${SUPPORTED.join(', ')}.`);
}

/** Throws only for a spec that names no known embedder; a missing key or server fails the first embed call. */
export function resolveEmbedder(spec: string | undefined, env: NodeJS.ProcessEnv = process.env, providers: ProvidersConfig = {}): Embedder {
  if (spec === undefined || LOCAL_SPECS.has(spec)) return localEmbedder();
  if (spec.startsWith('gemini-')) return cloudEmbedder(spec, CLOUD.google, env, async (apiKey, baseURL) => (await import('@ai-sdk/google')).createGoogleGenerativeAI({ apiKey, baseURL }).embedding(spec));
  if (spec.startsWith('text-embedding-')) return cloudEmbedder(spec, CLOUD.openai, env, async (apiKey, baseURL) => (await import('@ai-sdk/openai')).createOpenAI({ apiKey, baseURL }).embedding(spec));
  const parsed = parseModelId(spec);
  if (parsed?.family === 'ollama') return ollamaEmbedder(spec, parsed.model, env);
  if (parsed?.family === 'openai-compatible') return compatibleEmbedder(spec, parsed.server, parsed.model, env, providers);
  throw unknownEmbedderError(spec);
}

function cloudEmbedder(
  spec: string,
  provider: CloudProvider,
  env: NodeJS.ProcessEnv,
  build: (apiKey: string, baseURL: string) => Promise<EmbeddingModelV3>,
): Embedder {
  const baseURL = env[provider.baseUrlVar] || provider.defaultBaseUrl;
  return providerEmbedder({
    model: spec,
    dimensions: CLOUD_DIMENSIONS[spec],
    unreachable: `memory_embedding ${spec}: no server answers at ${baseURL}. Check ${provider.baseUrlVar}, ${OFFLINE_HINT}.`,
    async load() {
      const apiKey = provider.keys.map((name) => env[name]).find((value) => value);
      if (!apiKey) {
        throw new ModelConfigError(`memory_embedding ${spec} needs ${provider.keys.join(' or ')}, which is not set. Set it in the environment or a .env file, ${OFFLINE_HINT}.`);
      }
      return build(apiKey, baseURL);
    },
  });
}

function ollamaEmbedder(spec: string, model: string, env: NodeJS.ProcessEnv): Embedder {
  const root = (env.OLLAMA_BASE_URL || DEFAULT_OLLAMA_URL).replace(TRAILING_SLASHES, '');
  const baseURL = root.endsWith('/api') ? root : `${root}/api`;
  return providerEmbedder({
    model: spec,
    unreachable: `memory_embedding ${spec}: no Ollama server answers at ${baseURL}. Start it (ollama serve), set OLLAMA_BASE_URL, ${OFFLINE_HINT}.`,
    // A local server that refused a connection is not starting within the SDK's backoff.
    maxRetries: 0,
    load: async () => (await import('ollama-ai-provider-v2')).createOllama({ baseURL }).embedding(model),
  });
}

function compatibleEmbedder(spec: string, server: string, model: string, env: NodeJS.ProcessEnv, providers: ProvidersConfig): Embedder {
  const settings = compatibleServer(server, env, providers[server]);
  return providerEmbedder({
    model: spec,
    // With a problem, load fails before anything is sent, so the unreachable text is never used.
    unreachable: 'problem' in settings ? '' : `memory_embedding ${spec}: ${unreachableServer(settings, server)}, ${OFFLINE_HINT}.`,
    async load() {
      if ('problem' in settings) throw new ModelConfigError(`memory_embedding ${spec} cannot be used: ${settings.problem}, ${OFFLINE_HINT}.`);
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      return createOpenAICompatible({ name: server, baseURL: settings.baseURL, apiKey: settings.apiKey, headers: settings.headers }).embeddingModel(model);
    },
  });
}
