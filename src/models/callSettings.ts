import type { JSONObject, JSONValue, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import type { GenerateContentConfig, ThinkingConfig } from '../config/schema.js';
import type { ProviderFamily } from '../config/modelIds.js';

// Maps an agent's generateContentConfig (written with Gemini's field names) onto what each
// provider's AI SDK package actually sends: a standard call setting where the provider honours
// it, the provider's own providerOptions key otherwise. Whatever a provider would drop is
// reported here, once per agent, instead of in the SDK's per-call warnings that no one reads.
// The tables follow each package's getArgs (node_modules/@ai-sdk/*/dist/index.mjs).

export type CallSettings = Pick<
  LanguageModelV3CallOptions,
  'maxOutputTokens' | 'temperature' | 'topP' | 'topK' | 'stopSequences' | 'seed' | 'presencePenalty' | 'frequencyPenalty' | 'providerOptions'
>;

export interface MappedCallSettings {
  settings: CallSettings;
  /** One sentence per option the provider cannot honour; the caller adds the agent's name. */
  warnings: string[];
}

export interface AgentTraits {
  /** JSON mode without a schema is ignored by Claude models. */
  hasOutputSchema: boolean;
}

type RealFamily = Exclude<ProviderFamily, 'scripted'>;
type Sampling = 'maxOutputTokens' | 'temperature' | 'topP' | 'topK' | 'stopSequences' | 'seed' | 'presencePenalty' | 'frequencyPenalty';

const LABEL: Readonly<Record<RealFamily, string>> = {
  google: 'Gemini',
  anthropic: 'Claude',
  openai: 'OpenAI',
  xai: 'xAI',
  ollama: 'Ollama',
  'openai-compatible': 'OpenAI-compatible',
  local: 'local GGUF',
};

/** The providerOptions key each family's SDK reads. */
const OPTIONS_KEY: Readonly<Record<RealFamily, string>> = {
  google: 'google',
  anthropic: 'anthropic',
  openai: 'openai',
  xai: 'xai',
  ollama: 'ollama',
  'openai-compatible': 'openaiCompatible',
  local: 'local',
};

const EVERY_FAMILY: readonly RealFamily[] = ['google', 'anthropic', 'openai', 'xai', 'ollama', 'openai-compatible', 'local'];

/** Which families send each sampling setting to the model. */
const SAMPLING_SUPPORT: Readonly<Record<Sampling, readonly RealFamily[]>> = {
  maxOutputTokens: EVERY_FAMILY,
  temperature: EVERY_FAMILY,
  topP: EVERY_FAMILY,
  topK: ['google', 'anthropic', 'ollama', 'local'],
  stopSequences: ['google', 'anthropic', 'ollama', 'openai-compatible', 'local'],
  seed: ['google', 'xai', 'ollama', 'openai-compatible', 'local'],
  presencePenalty: ['google', 'openai-compatible', 'local'],
  frequencyPenalty: ['google', 'openai-compatible', 'local'],
};

const SAMPLING: readonly Sampling[] = Object.keys(SAMPLING_SUPPORT) as Sampling[];

/** Ollama reads sampling only from its `options` object, under Ollama's own names. */
const OLLAMA_OPTION_NAMES: Readonly<Partial<Record<Sampling, string>>> = {
  maxOutputTokens: 'num_predict',
  temperature: 'temperature',
  topP: 'top_p',
  topK: 'top_k',
  stopSequences: 'stop',
  seed: 'seed',
};

const CLAUDE_MIN_THINKING_BUDGET = 1024;
const CLAUDE_MAX_TEMPERATURE = 1;

interface Draft {
  family: RealFamily;
  settings: CallSettings;
  options: JSONObject;
  warnings: string[];
}

function joinOr(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

function unsupported(draft: Draft, option: string, supportedBy: readonly RealFamily[]): void {
  const alternatives = supportedBy.filter((family) => family !== draft.family).map((family) => LABEL[family]);
  const advice = alternatives.length > 0 ? `remove it or use a ${joinOr(alternatives)} model` : 'remove it';
  draft.warnings.push(`${option} is not supported by ${LABEL[draft.family]} models and will be ignored — ${advice}`);
}

function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** The settings as written, for models that take everything: the scripted model and ids only a custom resolver knows. */
export function neutralCallSettings(config: GenerateContentConfig): CallSettings {
  return definedOnly<CallSettings>({
    maxOutputTokens: config.maxOutputTokens,
    temperature: config.temperature,
    topP: config.topP,
    topK: config.topK,
    stopSequences: config.stopSequences,
    seed: config.seed,
    presencePenalty: config.presencePenalty,
    frequencyPenalty: config.frequencyPenalty,
  });
}

function mapSampling(draft: Draft, config: GenerateContentConfig): void {
  const written = neutralCallSettings(config);
  for (const key of SAMPLING) {
    const value = written[key];
    if (value === undefined) continue;
    if (!SAMPLING_SUPPORT[key].includes(draft.family)) {
      unsupported(draft, key, SAMPLING_SUPPORT[key]);
      continue;
    }
    const ollamaName = OLLAMA_OPTION_NAMES[key];
    if (draft.family === 'ollama' && ollamaName !== undefined) {
      draft.options.options = { ...(draft.options.options as JSONObject | undefined), [ollamaName]: value };
    } else {
      (draft.settings as Record<Sampling, unknown>)[key] = value;
    }
  }
}

function mapCommon(draft: Draft, config: GenerateContentConfig, traits: AgentTraits): void {
  if (config.candidateCount !== undefined && config.candidateCount > 1) {
    draft.warnings.push('candidateCount is not supported and will be ignored: every call returns one reply — remove it');
  }
  const mime = config.responseMimeType;
  if (mime === 'application/json' && draft.family === 'anthropic' && !traits.hasOutputSchema) {
    draft.warnings.push('responseMimeType application/json without an outputSchema is not supported by Claude models and will be ignored — add an outputSchema');
  } else if (mime !== undefined && mime !== 'application/json' && mime !== 'text/plain') {
    draft.warnings.push(`responseMimeType '${mime}' is not supported and will be ignored — use application/json for JSON mode, or remove it`);
  }
  if (config.safetySettings !== undefined) {
    if (draft.family === 'google') draft.options.safetySettings = config.safetySettings as JSONValue;
    else unsupported(draft, 'safetySettings', ['google']);
  }
}

function budgetNotSupported(draft: Draft): void {
  draft.warnings.push(`thinkingBudget is not supported by ${LABEL[draft.family]} models and will be ignored — use thinkingLevel (minimal, low, medium or high) instead`);
}

function thoughtsNotSelectable(draft: Draft): void {
  draft.warnings.push(`includeThoughts is not supported by ${LABEL[draft.family]} models and will be ignored: their reasoning is shown whenever the model returns it — remove it`);
}

/** xAI and Claude have no 'minimal' effort. */
function effortWithoutMinimal(draft: Draft, level: NonNullable<ThinkingConfig['thinkingLevel']>): string {
  if (level !== 'minimal') return level;
  draft.warnings.push(`thinkingLevel 'minimal' is not supported by ${LABEL[draft.family]} models; 'low' is used instead`);
  return 'low';
}

/** Returns whether Claude will think, which rules out its sampling settings. */
function mapClaudeThinking(draft: Draft, thinking: ThinkingConfig): boolean {
  const { thinkingBudget: budget, thinkingLevel: level, includeThoughts } = thinking;
  if (level !== undefined || (budget !== undefined && budget < 0)) {
    // Adaptive thinking is Claude's "model decides", the closest to a level or Gemini's dynamic budget (-1).
    draft.options.thinking = includeThoughts === false ? { type: 'adaptive', display: 'omitted' } : { type: 'adaptive' };
    if (level !== undefined) draft.options.effort = effortWithoutMinimal(draft, level);
    return true;
  }
  if (budget === 0) {
    draft.options.thinking = { type: 'disabled' };
    if (includeThoughts === true) draft.warnings.push('includeThoughts has no effect with thinkingBudget 0: Claude does not think — remove one of them');
    return false;
  }
  if (budget !== undefined) {
    if (budget < CLAUDE_MIN_THINKING_BUDGET) {
      draft.warnings.push(`thinkingBudget ${budget} is below Claude's minimum; ${CLAUDE_MIN_THINKING_BUDGET} is used instead`);
    }
    draft.options.thinking = { type: 'enabled', budgetTokens: Math.max(budget, CLAUDE_MIN_THINKING_BUDGET) };
    if (includeThoughts === false) {
      draft.warnings.push('includeThoughts: false is not supported by Claude models with a thinkingBudget and will be ignored: their thinking is always returned (shown and stored, never fed back) — remove it or use thinkingLevel');
    }
    return true;
  }
  if (includeThoughts === true) {
    draft.warnings.push(`includeThoughts does not turn thinking on for Claude models — set thinkingBudget (${CLAUDE_MIN_THINKING_BUDGET} or more) or thinkingLevel as well`);
  }
  return false;
}

/** Claude refuses temperature, top-p and top-k while thinking, and top-p next to temperature. */
function dropClaudeConflicts(draft: Draft, thinking: boolean): void {
  const { settings } = draft;
  if (thinking) {
    for (const key of ['temperature', 'topP', 'topK'] as const) {
      if (settings[key] === undefined) continue;
      delete settings[key];
      draft.warnings.push(`${key} cannot be combined with thinking on Claude models and will be ignored — remove it or turn thinking off`);
    }
    return;
  }
  if (settings.temperature !== undefined && settings.temperature > CLAUDE_MAX_TEMPERATURE) {
    draft.warnings.push(`temperature ${settings.temperature} is above Claude's maximum; ${CLAUDE_MAX_TEMPERATURE} is used instead`);
    settings.temperature = CLAUDE_MAX_TEMPERATURE;
  }
  if (settings.topP !== undefined && settings.temperature !== undefined) {
    delete settings.topP;
    draft.warnings.push('topP cannot be combined with temperature on Claude models and will be ignored — set only one of them');
  }
}

function mapThinking(draft: Draft, thinking: ThinkingConfig): void {
  const { thinkingBudget: budget, thinkingLevel: level, includeThoughts } = thinking;
  switch (draft.family) {
    case 'google':
      if (Object.keys(definedOnly(thinking)).length > 0) draft.options.thinkingConfig = definedOnly(thinking);
      return;
    case 'anthropic':
      dropClaudeConflicts(draft, mapClaudeThinking(draft, thinking));
      return;
    case 'openai':
      if (level !== undefined) draft.options.reasoningEffort = level;
      if (budget !== undefined) budgetNotSupported(draft);
      // OpenAI returns reasoning only as a summary, and only when asked for one.
      if (includeThoughts === true) draft.options.reasoningSummary = 'auto';
      return;
    case 'xai':
      if (level !== undefined) draft.options.reasoningEffort = effortWithoutMinimal(draft, level);
      if (budget !== undefined) budgetNotSupported(draft);
      if (includeThoughts !== undefined) thoughtsNotSelectable(draft);
      return;
    case 'openai-compatible':
      if (level !== undefined) draft.options.reasoningEffort = level;
      if (budget !== undefined) budgetNotSupported(draft);
      if (includeThoughts !== undefined) thoughtsNotSelectable(draft);
      return;
    case 'ollama':
      mapOllamaThinking(draft, thinking);
      return;
  }
}

/** Ollama has one switch, `think`; its SDK turns it off unless asked. */
function mapOllamaThinking(draft: Draft, thinking: ThinkingConfig): void {
  const { thinkingBudget: budget, thinkingLevel: level, includeThoughts } = thinking;
  if (budget === undefined && level === undefined && includeThoughts === undefined) return;
  const limited = (budget !== undefined && budget !== 0) || level !== undefined;
  draft.options.think = limited || (budget !== 0 && includeThoughts === true);
  if (limited) {
    const option = level !== undefined ? 'thinkingLevel' : 'thinkingBudget';
    draft.warnings.push(`${option} is not supported by Ollama models: thinking is simply turned on, without a limit — replace it with includeThoughts: true`);
  }
}

/**
 * The call settings for a model of `family`, and a warning for each option it cannot honour.
 * The scripted model takes everything silently: it is the offline test double.
 */
export function callSettingsFor(family: ProviderFamily, config: GenerateContentConfig, traits: AgentTraits = { hasOutputSchema: false }): MappedCallSettings {
  if (family === 'scripted') return { settings: neutralCallSettings(config), warnings: [] };
  const draft: Draft = { family, settings: {}, options: {}, warnings: [] };
  mapSampling(draft, config);
  mapCommon(draft, config, traits);
  mapThinking(draft, config.thinkingConfig ?? {});
  if (Object.keys(draft.options).length > 0) draft.settings.providerOptions = { [OPTIONS_KEY[family]]: draft.options };
  return { settings: draft.settings, warnings: draft.warnings };
}
