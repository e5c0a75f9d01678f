import type { LanguageModelV3ProviderTool } from '@ai-sdk/provider';
import { WEB_SEARCH_TOOL } from '../config/builtinToolNames.js';
import { parseModelId, type ProviderFamily } from '../config/modelIds.js';

// `web_search` in an agent's tools turns on its provider's own search, which the provider runs
// and answers from within the same call. A provider tool is plain data, so it is written out
// here rather than built by the SDK's factory (the SDKs load lazily, on a model's first call);
// test/models/webSearch.test.ts checks each one against what the SDK's factory produces.

/** Provider tool ids, as each SDK's factory names them (openai.tools.webSearch, anthropic.tools.webSearch_20250305, ...). */
const PROVIDER_TOOL_IDS: Readonly<Partial<Record<ProviderFamily, LanguageModelV3ProviderTool['id']>>> = {
  google: 'google.google_search',
  anthropic: 'anthropic.web_search_20250305',
  openai: 'openai.web_search',
  xai: 'xai.web_search',
};

export const WEB_SEARCH_MODELS = 'Gemini (gemini-*), Claude (claude-*), OpenAI (gpt-*, o-series) and xAI (grok-*) models';

// The Google SDK drops Google Search before Gemini 2, and drops every function tool next to it
// before Gemini 3 (the API cannot combine them), so both would fail silently.
const PRE_GEMINI_2 = /^gemini-(1(?:[.-]|$)|pro(?:-vision)?$)/i;
const GEMINI_2 = /^gemini-2(?:[.-]|$)/i;

/** The provider's search tool for a model of `family`, or undefined when it has none (and for the scripted model). */
export function webSearchTool(family: ProviderFamily): LanguageModelV3ProviderTool | undefined {
  const id = PROVIDER_TOOL_IDS[family];
  return id === undefined ? undefined : { type: 'provider', id, name: WEB_SEARCH_TOOL, args: {} };
}

/**
 * Why an agent on `modelId` cannot have web_search, as the end of a sentence starting with
 * the agent's name; undefined when it can. The scripted model accepts it (it never searches),
 * so offline runs work on files written for real models.
 */
export function webSearchProblem(modelId: string, withOtherTools: boolean): string | undefined {
  const parsed = parseModelId(modelId);
  if (parsed === undefined || parsed.family === 'scripted') return undefined;
  if (webSearchTool(parsed.family) === undefined) {
    return `lists web_search, but its model ${modelId} has no native web search — web_search works with ${WEB_SEARCH_MODELS}: give this agent one of those, or remove web_search`;
  }
  if (parsed.family !== 'google') return undefined;
  if (PRE_GEMINI_2.test(parsed.model)) {
    return `lists web_search, but ${modelId} has no Google Search (it needs Gemini 2 or newer) — use a newer Gemini model, or remove web_search`;
  }
  if (withOtherTools && GEMINI_2.test(parsed.model)) {
    return `lists web_search next to other tools or subagents, which ${modelId} cannot combine with Google Search (Gemini 3 and newer can) — give web_search to a subagent of its own, or use a Gemini 3 model`;
  }
  return undefined;
}
