// The syntax of model ids: which provider family an id names. Below models/ so that the loader
// can refuse an unknown id at its file:line:col without loading any provider.

import { editDistance } from './suggest.js';

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

// The part of an id before its first separator, as each family starts.
const FAMILY_HEADS = ['gemini', 'claude', 'gpt', 'grok', 'ollama', 'openai-compatible', 'local', 'scripted'];
const HEAD = /^([A-Za-z]+(?:-compatible)?)([-/:].*)?$/;

/** The id with its family prefix corrected (`gtp-4o` -> `gpt-4o`), when that makes a known id. */
function correctedId(id: string): string | undefined {
  const match = HEAD.exec(id);
  if (!match?.[1]) return undefined;
  const head = match[1].toLowerCase();
  const best = FAMILY_HEADS.map((candidate) => ({ candidate, distance: editDistance(head, candidate) })).sort((a, b) => a.distance - b.distance)[0];
  if (!best || best.distance === 0 || best.distance > 2) return undefined;
  const corrected = `${best.candidate}${match[2] ?? ''}`;
  return parseModelId(corrected) ? corrected : undefined;
}

/** Why `id` names no model, ending with the ids that do: a sentence after `Unknown model "<id>"`. */
export function unknownModelAdvice(id: string): string {
  const corrected = correctedId(id);
  return `${corrected ? `did you mean "${corrected}"? ` : ''}Supported model ids: ${SUPPORTED.join(', ')}.`;
}
