import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { ProvidersConfig } from '../config/projectConfig.js';
import type { ModelContext } from './context.js';
import { unconfiguredModel, withUnreachableHint } from './guards.js';
import { lazyModel } from './lazyModel.js';
import { createLocalModel } from './local/createLocalModel.js';
import { parseModelId } from '../config/modelIds.js';
import { unknownModelError } from './modelIds.js';
import { withOllamaErrorMessages } from './ollamaErrors.js';
import { resolveOpenAICompatible } from './openAICompatible.js';
import { CLOUD, loadOllama, OLLAMA_PROVIDER, XAI_RESPONSES } from './providers.js';
import { createScriptedModel } from './scripted/createScriptedModel.js';
import { withThinkTagReasoning } from './thinkTags.js';

export { providerOf } from './modelIds.js';

const DEFAULT_OLLAMA_URL = 'http://localhost:11434';
const OFFLINE_HINT = 'or run with --offline to use the built-in scripted model.';
const TRAILING_SLASHES = /\/+$/;

/**
 * The language model for a model id. Never fails for missing keys or servers: those fail at the
 * first call with a ModelConfigError that says what to set. Throws only for an unknown id.
 * Imports no provider SDK: a model's SDK is imported by its first call (see providers.ts).
 * `providers` are the project config file's openai-compatible servers; `env` wins over them.
 */
export function resolveModel(id: string, context: ModelContext, env: NodeJS.ProcessEnv = process.env, providers: ProvidersConfig = {}): LanguageModelV3 {
  const parsed = parseModelId(id);
  if (!parsed) throw unknownModelError(id, context.agentName);
  const agent = context.agentName;
  switch (parsed.family) {
    case 'scripted':
      return createScriptedModel(context);
    case 'local':
      return createLocalModel(parsed.path);
    case 'ollama': {
      const root = (env.OLLAMA_BASE_URL || DEFAULT_OLLAMA_URL).replace(TRAILING_SLASHES, '');
      const baseURL = root.endsWith('/api') ? root : `${root}/api`;
      const message = `Agent '${agent}' uses ${id} but no Ollama server answers at ${baseURL}. Start it (ollama serve), set OLLAMA_BASE_URL, ${OFFLINE_HINT}`;
      return lazyModel({ provider: OLLAMA_PROVIDER, modelId: parsed.model }, async () => {
        const model = withUnreachableHint(await loadOllama(baseURL, parsed.model), message);
        return withThinkTagReasoning(withOllamaErrorMessages(model));
      });
    }
    case 'openai-compatible':
      return resolveOpenAICompatible({ id, server: parsed.server, model: parsed.model, agent, offlineHint: OFFLINE_HINT }, env, providers[parsed.server]);
    default: {
      const provider = parsed.family === 'xai' && context.webSearch ? XAI_RESPONSES : CLOUD[parsed.family];
      const identity = { provider: provider.provider, modelId: parsed.model };
      const apiKey = provider.keys.map((name) => env[name]).find((value) => value);
      if (!apiKey) {
        return unconfiguredModel(
          identity,
          `Agent '${agent}' uses ${id} but ${provider.keys.join(' or ')} is not set. Set it in the environment or a .env file, ${OFFLINE_HINT}`,
        );
      }
      const baseURL = env[provider.baseUrlVar] || provider.defaultBaseUrl;
      return lazyModel(identity, () => provider.load(apiKey, parsed.model, baseURL));
    }
  }
}
