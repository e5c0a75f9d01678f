import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { ProvidersConfig } from '../config/projectConfig.js';
import { CLOUD } from './providers.js';
import { compatibleServer } from './openAICompatible.js';
import type { CloudFamily } from '../config/modelIds.js';
import { resolveModel } from './resolveModel.js';

// What `syndicate models` reports: each provider family, whether it is configured here (a key,
// a server address), and the model a ping uses. Checking configuration reads only the
// environment and the project config; only a ping calls anything.

export interface ProviderStatus {
  family: string;
  /** How agents name its models. */
  ids: string;
  /** Undefined when configured; otherwise what to set. */
  missing: string | undefined;
  /** The model one short ping call uses; undefined when it has to be asked for (see pingModel). */
  pingModel: string | undefined;
  /** Where a server is expected, for families that run on one. */
  server?: string;
  /** Assumed rather than configured (Ollama on its default address): a failed ping is reported, not an error. */
  assumed?: boolean;
}

// The smallest current model of each cloud family: a ping costs a few tokens.
const CLOUD_PING_MODELS: Readonly<Record<CloudFamily, string>> = {
  google: 'gemini-2.5-flash-lite',
  anthropic: 'claude-haiku-4-5',
  openai: 'gpt-5-nano',
  xai: 'grok-3-mini',
};

const CLOUD_ROWS: ReadonlyArray<[CloudFamily, string, string]> = [
  ['google', 'Gemini', 'gemini-*'],
  ['anthropic', 'Claude', 'claude-*'],
  ['openai', 'OpenAI', 'gpt-*, o1*/o3*/o4*'],
  ['xai', 'xAI', 'grok-*'],
];

const DEFAULT_OLLAMA_URL = 'http://localhost:11434';

export function providerStatuses(env: NodeJS.ProcessEnv, providers: ProvidersConfig): ProviderStatus[] {
  const cloud = CLOUD_ROWS.map(([family, label, ids]): ProviderStatus => {
    const keys = CLOUD[family].keys;
    const configured = keys.some((name) => env[name]);
    return { family: label, ids, missing: configured ? undefined : `set ${keys.join(' or ')}`, pingModel: CLOUD_PING_MODELS[family] };
  });
  const ollama: ProviderStatus = { family: 'Ollama', ids: 'ollama/<model>', missing: undefined, pingModel: undefined, server: env.OLLAMA_BASE_URL || DEFAULT_OLLAMA_URL, assumed: !env.OLLAMA_BASE_URL };
  const servers = compatibleServerNames(env, providers).map((name): ProviderStatus => {
    const settings = compatibleServer(name, env, providers[name]);
    return {
      family: `OpenAI-compatible '${name}'`,
      ids: `openai-compatible:${name}/<model>`,
      missing: 'problem' in settings ? settings.problem : undefined,
      pingModel: undefined,
      server: 'problem' in settings ? undefined : settings.baseURL,
    };
  });
  const scripted: ProviderStatus = { family: 'scripted (built in)', ids: 'scripted', missing: undefined, pingModel: 'scripted' };
  return [...cloud, ollama, ...servers, scripted];
}

const COMPATIBLE_VAR = /^OPENAI_COMPATIBLE_([A-Z0-9_]+)_BASE_URL$/;

/** Servers named by the project config, and by OPENAI_COMPATIBLE_<NAME>_BASE_URL (as lower-case names with - for _). */
function compatibleServerNames(env: NodeJS.ProcessEnv, providers: ProvidersConfig): string[] {
  const fromEnv = Object.keys(env).flatMap((name) => {
    const match = COMPATIBLE_VAR.exec(name);
    return match?.[1] && env[name] ? [match[1].toLowerCase().replace(/_/g, '-')] : [];
  });
  const fromFile = Object.keys(providers);
  const known = new Set(fromFile.map((name) => name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')));
  return [...fromFile, ...fromEnv.filter((name) => !known.has(name.toUpperCase().replace(/-/g, '_')))];
}

export interface PingResult {
  model: string;
  inputTokens: number | undefined;
  outputTokens: number | undefined;
  milliseconds: number;
}

/** The model id a ping uses: a server's first listed model where the family has no fixed one. */
async function pingModelId(status: ProviderStatus, signal: AbortSignal): Promise<string> {
  if (status.pingModel) return status.pingModel;
  if (status.family === 'Ollama') {
    const root = status.server!.replace(/\/+$/, '').replace(/\/api$/, '');
    const response = await fetch(`${root}/api/tags`, { signal }).catch((error: unknown) => {
      throw new Error(`no Ollama server answers at ${root}: start it (ollama serve) or set OLLAMA_BASE_URL`, { cause: error });
    });
    const { models } = (await response.json()) as { models?: Array<{ name: string }> };
    const first = models?.[0]?.name;
    if (!first) throw new Error(`the Ollama server at ${status.server} has no models: pull one (ollama pull qwen3:0.6b)`);
    return `ollama/${first}`;
  }
  const response = await fetch(`${status.server!.replace(/\/+$/, '')}/models`, { signal });
  const { data } = (await response.json()) as { data?: Array<{ id: string }> };
  const first = data?.[0]?.id;
  if (!first) throw new Error(`${status.server}/models lists no models`);
  return `${status.ids.replace('<model>', first)}`;
}

/** One short call to the family's model: its tokens and how long it took. */
export async function pingProvider(status: ProviderStatus, env: NodeJS.ProcessEnv, providers: ProvidersConfig, signal: AbortSignal): Promise<PingResult> {
  const model = await pingModelId(status, signal);
  const language: LanguageModelV3 = resolveModel(model, { agentName: 'models --ping', subagents: [], script: [{ reply: 'OK', repeat: true }] }, env, providers);
  const started = performance.now();
  const result = await language.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'Reply with the word OK.' }] }], maxOutputTokens: 16, abortSignal: signal });
  return { model, inputTokens: result.usage.inputTokens.total, outputTokens: result.usage.outputTokens.total, milliseconds: Math.round(performance.now() - started) };
}
