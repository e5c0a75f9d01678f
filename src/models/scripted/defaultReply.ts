import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { classify, messageToClassify, type IndexedRoute } from './classifier.js';
import { delegationReply } from './delegation.js';
import { jsonInstance, type StringFor } from './jsonInstance.js';
import { leafText } from './leaf.js';
import type { PromptView } from './promptView.js';
import type { ScriptedReply } from './reply.js';

/** What the default behaviour knows about its agent, prepared once per model instance. */
export interface ScriptedAgent {
  name: string;
  subagents: readonly string[];
  classifier: { routes: readonly IndexedRoute[]; routeKey: string; reasonKey: string } | undefined;
  nextCallId: () => string;
}

const EXCERPT_CHARS = 60;

function excerpt(text: string): string {
  return text.length <= EXCERPT_CHARS ? text : `${text.slice(0, EXCERPT_CHARS)}…`;
}

function stringsFor(agentName: string, input: string): StringFor {
  const about = excerpt(input);
  return (key) => `${key} from ${agentName} on "${about}"`;
}

function offeredDelegates(subagents: readonly string[], tools: LanguageModelV3CallOptions['tools']): string[] {
  if (!tools?.length) return [];
  return subagents.filter((name) => tools.some((tool) => tool.name === name));
}

/** The answer when no script step applies: delegate, classify, fill a JSON schema, or speak as a leaf. */
export function defaultReply(agent: ScriptedAgent, options: LanguageModelV3CallOptions, view: PromptView): ScriptedReply {
  const delegates = offeredDelegates(agent.subagents, options.tools);
  if (delegates.length > 0) return delegationReply(delegates, view, agent.nextCallId);
  const format = options.responseFormat;
  const schema = format?.type === 'json' ? format.schema : undefined;
  if (agent.classifier) {
    const { routes, routeKey, reasonKey } = agent.classifier;
    const { route, reason } = classify(messageToClassify(view.userText), routes);
    const base = schema ? (jsonInstance(schema, stringsFor(agent.name, view.userText)) as Record<string, unknown>) : {};
    return { text: JSON.stringify({ ...base, [routeKey]: route, [reasonKey]: reason }) };
  }
  if (schema) return { text: JSON.stringify(jsonInstance(schema, stringsFor(agent.name, view.userText))) };
  const text = leafText(agent.name, view.userText);
  return { text: format?.type === 'json' ? JSON.stringify({ answer: text }) : text };
}
