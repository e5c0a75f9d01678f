import type { ScriptStep } from '../config/schema.js';

export interface NamedDescription {
  name: string;
  description: string;
}

export interface ClassifierContext {
  routes: NamedDescription[];
  routeKey: string;
  reasonKey: string;
}

/** What a model is told about the agent it serves. Only the scripted model reads more than the name. */
export interface ModelContext {
  agentName: string;
  subagents: NamedDescription[];
  script?: ScriptStep[];
  classifier?: ClassifierContext;
  /** The agent lists web_search: xAI runs its native search only on another API. */
  webSearch?: boolean;
}

/** Separates the conversation digest from the message a dispatch classifier must route. */
export const CLASSIFY_MARKER = '--- MESSAGE TO CLASSIFY ---';
