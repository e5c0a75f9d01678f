import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { ProviderConfig } from '../config/projectConfig.js';
import { isRecord } from '../config/problem.js';
import { unconfiguredModel, withUnreachableHint } from './guards.js';
import { lazyModel } from './lazyModel.js';
import { loadOpenAICompatible, openAICompatibleProvider } from './providers.js';

// An openai-compatible server's settings come from OPENAI_COMPATIBLE_<NAME>_* variables or the
// project config file's `providers.<name>`; a variable wins over the file.

const NON_ENV_CHARS = /[^A-Z0-9]+/g;
const HEADERS_EXAMPLE = '{"HTTP-Referer":"https://example.com","X-Title":"Syndicate"}';

export interface OpenAICompatibleRequest {
  id: string;
  server: string;
  model: string;
  agent: string;
  /** Appended to every "not configured" message. */
  offlineHint: string;
}

/** `OPENAI_COMPATIBLE_LM_STUDIO` for the server `lm-studio`. */
function envPrefix(server: string): string {
  return `OPENAI_COMPATIBLE_${server.toUpperCase().replace(NON_ENV_CHARS, '_')}`;
}

export interface CompatibleServer {
  /** The variables' prefix, for messages. */
  prefix: string;
  baseURL: string;
  apiKey: string | undefined;
  headers: Record<string, string>;
}

/** How to reach the server, or what is missing: a sentence a message can continue after "but ". */
export function compatibleServer(server: string, env: NodeJS.ProcessEnv, file: ProviderConfig | undefined): CompatibleServer | { problem: string } {
  const prefix = envPrefix(server);
  const baseURL = env[`${prefix}_BASE_URL`] || file?.base_url;
  if (baseURL === undefined) {
    return {
      problem: `${prefix}_BASE_URL is not set. Set it to the server's URL (e.g. http://localhost:1234/v1) in the environment or a .env file, or give providers.${server}.base_url in syndicate.config.yaml`,
    };
  }
  const keyVariable = file?.api_key_env;
  const apiKey = env[`${prefix}_API_KEY`] || (keyVariable === undefined ? undefined : env[keyVariable]) || undefined;
  // A server without keys needs no api_key_env; one that names a variable expects a key in it.
  if (apiKey === undefined && keyVariable !== undefined) {
    return { problem: `${keyVariable}, named by providers.${server}.api_key_env in the project config, is not set. Set it in the environment or a .env file` };
  }
  const envHeaders = parseHeaders(env[`${prefix}_HEADERS`]);
  if (typeof envHeaders === 'string') {
    return { problem: `${prefix}_HEADERS is not a JSON object of string values (${envHeaders}). Write it like ${HEADERS_EXAMPLE}` };
  }
  // Merged by header name, so the file can hold the fixed ones and the environment add or replace one.
  return { prefix, baseURL, apiKey, headers: { ...file?.headers, ...envHeaders } };
}

/** What to say when nothing answers at the server's address. */
export function unreachableServer({ prefix, baseURL }: CompatibleServer, server: string): string {
  return `no server answers at ${baseURL}. Start it, fix ${prefix}_BASE_URL or providers.${server}.base_url`;
}

export function resolveOpenAICompatible(request: OpenAICompatibleRequest, env: NodeJS.ProcessEnv, file: ProviderConfig | undefined): LanguageModelV3 {
  const { id, server, model, agent, offlineHint } = request;
  const identity = { provider: openAICompatibleProvider(server), modelId: model };
  const settings = compatibleServer(server, env, file);
  if ('problem' in settings) return unconfiguredModel(identity, `Agent '${agent}' uses ${id} but ${settings.problem}, ${offlineHint}`);
  const { baseURL, apiKey, headers } = settings;
  const message = `Agent '${agent}' uses ${id} but ${unreachableServer(settings, server)}, ${offlineHint}`;
  return lazyModel(identity, async () => withUnreachableHint(await loadOpenAICompatible(server, baseURL, apiKey, model, headers), message));
}

/** The headers, none when unset, or what is wrong with the JSON. */
function parseHeaders(text: string | undefined): Record<string, string> | string {
  if (!text) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  if (!isRecord(value)) return 'not an object';
  const notText = Object.entries(value).find(([, header]) => typeof header !== 'string');
  if (notText) return `the value of ${JSON.stringify(notText[0])} is not a string`;
  return value as Record<string, string>;
}
