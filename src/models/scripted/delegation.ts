import type { PromptView } from './promptView.js';
import type { ScriptedReply } from './reply.js';

function listNames(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * Consults each delegate once, in order, with the user's message verbatim; once all have answered,
 * quotes their results.
 */
export function delegationReply(delegates: readonly string[], view: PromptView, nextCallId: () => string): ScriptedReply {
  const next = delegates.find((name) => !view.called.has(name));
  if (next !== undefined) {
    return { toolCalls: [{ toolCallId: nextCallId(), toolName: next, input: JSON.stringify({ request: view.userText }) }] };
  }
  const quotes = delegates.map((name) => `${name}: ${view.results.get(name) ?? '(no result)'}`);
  return { text: `Consulted ${listNames(delegates)}.\n\n${quotes.join('\n\n')}` };
}
