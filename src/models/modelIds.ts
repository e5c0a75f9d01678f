import { ModelConfigError } from './errors.js';

export type CloudFamily = 'google' | 'anthropic' | 'openai' | 'xai';
export type ProviderFamily = CloudFamily | 'ollama' | 'openai-compatible' | 'local' | 'scripted';

export type ParsedModelId =
  | { family: CloudFamily; model: string }
  | { family: 'ollama'; model: string }
  | { family: 'openai-compatible'; server: string; model: string }
  | { family: 'local'; path: string }
  | { family: 'scripted' };

const SUPPORTED = [
  'gemini-*',
  'claude-*',
  'gpt-*',
  'o1*/o3*/o4* (OpenAI o-series)',
  'grok-*',
  'ollama/<model>',
  'openai-compatible:<name>/<model>',
  'local:<path-to-model.gguf>',
  'scripted',
];

const O_SERIES = /^o\d/;
const OLLAMA = 'ollama/';
const OPENAI_COMPATIBLE = 'openai-compatible:';
const LOCAL = 'local:';

export function parseModelId(id: string): ParsedModelId | undefined {
  if (id === 'scripted' || id.startsWith('scripted/')) return { family: 'scripted' };
  if (id.startsWith('gemini-')) return { family: 'google', model: id };
  if (id.startsWith('claude-')) return { family: 'anthropic', model: id };
  if (id.startsWith('gpt-') || O_SERIES.test(id)) return { family: 'openai', model: id };
  if (id.startsWith('grok-')) return { family: 'xai', model: id };
  if (id.startsWith(OLLAMA)) {
    const model = id.slice(OLLAMA.length);
    return model ? { family: 'ollama', model } : undefined;
  }
  if (id.startsWith(LOCAL)) return id.length > LOCAL.length ? { family: 'local', path: id.slice(LOCAL.length) } : undefined;
  if (id.startsWith(OPENAI_COMPATIBLE)) {
    const rest = id.slice(OPENAI_COMPATIBLE.length);
    const slash = rest.indexOf('/');
    if (slash <= 0 || slash === rest.length - 1) return undefined;
    return { family: 'openai-compatible', server: rest.slice(0, slash), model: rest.slice(slash + 1) };
  }
  return undefined;
}

export function unknownModelError(id: string, agentName?: string): ModelConfigError {
  const who = agentName === undefined ? '' : ` for agent '${agentName}'`;
  return new ModelConfigError(`Unknown model "${id}"${who}. Supported model ids: ${SUPPORTED.join(', ')}.`);
}

/** The provider family of a model id, e.g. 'anthropic' for 'claude-sonnet-4'. Throws for an unknown id. */
export function providerOf(id: string): ProviderFamily {
  const parsed = parseModelId(id);
  if (!parsed) throw unknownModelError(id);
  return parsed.family;
}
