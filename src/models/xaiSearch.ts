import type { LanguageModelV3ProviderTool } from '@ai-sdk/provider';
import { COLLECTIONS_SEARCH_TOOL, X_SEARCH_TOOL } from '../config/builtinToolNames.js';

// xAI's server-side search tools on its Responses API: x_search (X posts), collections_search
// (xAI Collections, the API's file_search over collection ids) and web_search with domain
// filters. melchizedek-agents configures them through XAI_* environment variables, read here
// once per compile and checked, so a bad value is an error before any call rather than a
// refusal from the SDK or the API at the first one.


// @ai-sdk/xai validates the tool arguments before sending them: at most 10 handles per list
// (xai.tools.xSearch) and 5 domains (xai.tools.webSearch).
const MAX_HANDLES = 10;
const MAX_DOMAINS = 5;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface XaiSearchSettings {
  xSearch: { allowedXHandles?: string[]; excludedXHandles?: string[]; fromDate?: string; toDate?: string };
  webSearch: { allowedDomains?: string[]; excludedDomains?: string[] };
  /** Undefined when XAI_COLLECTION_IDS is unset: collections_search then has nothing to search. */
  collections: { vectorStoreIds: string[]; maxNumResults?: number } | undefined;
}

export interface XaiSearchEnv {
  settings: XaiSearchSettings;
  /** One sentence per variable that is wrong, naming it and how to fix it. */
  problems: string[];
}

function list(env: NodeJS.ProcessEnv, name: string, strip?: RegExp): string[] | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  return raw
    .split(',')
    .map((item) => (strip ? item.trim().replace(strip, '') : item.trim()))
    .filter((item) => item !== '');
}

function exclusiveLists(env: NodeJS.ProcessEnv, allowed: string, excluded: string, max: number, what: string, problems: string[], strip?: RegExp) {
  const allow = list(env, allowed, strip);
  const exclude = list(env, excluded, strip);
  if (allow && exclude) problems.push(`${allowed} and ${excluded} are both set, and xAI takes only one of them — unset one`);
  for (const [name, items] of [[allowed, allow], [excluded, exclude]] as const) {
    if (items && items.length > max) problems.push(`${name} lists ${items.length} ${what}, and xAI takes at most ${max} — shorten the list`);
  }
  return { allow, exclude };
}

function date(env: NodeJS.ProcessEnv, name: string, problems: string[]): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (!ISO_DATE.test(raw) || Number.isNaN(Date.parse(`${raw}T00:00:00Z`)) || new Date(`${raw}T00:00:00Z`).toISOString().slice(0, 10) !== raw) {
    problems.push(`${name} is '${raw}', which is not a date — write it as YYYY-MM-DD, e.g. 2026-01-31`);
    return undefined;
  }
  return raw;
}

export function readXaiSearchEnv(env: NodeJS.ProcessEnv): XaiSearchEnv {
  const problems: string[] = [];
  const handles = exclusiveLists(env, 'XAI_X_SEARCH_ALLOWED_HANDLES', 'XAI_X_SEARCH_EXCLUDED_HANDLES', MAX_HANDLES, 'handles', problems, /^@/);
  const fromDate = date(env, 'XAI_X_SEARCH_FROM_DATE', problems);
  const toDate = date(env, 'XAI_X_SEARCH_TO_DATE', problems);
  if (fromDate && toDate && fromDate > toDate) problems.push(`XAI_X_SEARCH_FROM_DATE (${fromDate}) is after XAI_X_SEARCH_TO_DATE (${toDate}): both are inclusive — swap them`);
  const domains = exclusiveLists(env, 'XAI_WEB_SEARCH_ALLOWED_DOMAINS', 'XAI_WEB_SEARCH_EXCLUDED_DOMAINS', MAX_DOMAINS, 'domains', problems);
  const ids = list(env, 'XAI_COLLECTION_IDS');
  const rawMax = env.XAI_COLLECTIONS_MAX_RESULTS?.trim();
  const maxNumResults = rawMax ? Number(rawMax) : undefined;
  if (maxNumResults !== undefined && !(Number.isInteger(maxNumResults) && maxNumResults > 0)) {
    problems.push(`XAI_COLLECTIONS_MAX_RESULTS is '${rawMax}' — set it to a whole number above 0, e.g. 10`);
  }
  return {
    settings: {
      xSearch: definedOnly({ allowedXHandles: handles.allow, excludedXHandles: handles.exclude, fromDate, toDate }),
      webSearch: definedOnly({ allowedDomains: domains.allow, excludedDomains: domains.exclude }),
      collections: ids ? definedOnly({ vectorStoreIds: ids, maxNumResults }) : undefined,
    },
    problems,
  };
}

function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** Why a grok agent cannot have `tool` with these settings; undefined when it can. */
export function xaiToolProblem(tool: string, settings: XaiSearchSettings): string | undefined {
  if (tool === COLLECTIONS_SEARCH_TOOL && settings.collections === undefined) {
    return 'lists collections_search, but XAI_COLLECTION_IDS is not set — set it to the ids of the xAI Collections to search, separated by commas';
  }
  return undefined;
}

/** The provider tool for a grok agent; ids as @ai-sdk/xai's factories name them (xai.tools.xSearch, fileSearch, webSearch). */
export function xaiProviderTool(tool: string, settings: XaiSearchSettings): LanguageModelV3ProviderTool {
  if (tool === X_SEARCH_TOOL) return { type: 'provider', id: 'xai.x_search', name: tool, args: settings.xSearch };
  if (tool === COLLECTIONS_SEARCH_TOOL) {
    if (!settings.collections) throw new Error('collections_search without XAI_COLLECTION_IDS (xaiToolProblem should have refused it)');
    return { type: 'provider', id: 'xai.file_search', name: tool, args: settings.collections };
  }
  return { type: 'provider', id: 'xai.web_search', name: tool, args: settings.webSearch };
}
