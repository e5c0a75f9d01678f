import type { CompiledSyndicate } from '../runtime/compileSyndicate.js';
import { errorMessage } from '../core/errors.js';
import type { TurnEvent } from '../core/events.js';
import type { TurnRecord } from '../runtime/projectTranscript.js';
import { recordAppended } from '../runtime/sessionHistory.js';
import type { Store } from '../store/store.js';

// Withdrawing the question a task waited on when the task is cancelled: the remote tasks that
// wait for its answer are cancelled, and the session records that nothing waits any more.

/**
 * Withdraws the question `asked` (the session's last turn) ended on: the remote tasks waiting for
 * its answer are cancelled, and the session stores that nothing waits, so its next message starts
 * afresh (a new remote task, routed like any message). Resolves to what could not be done, as warnings.
 */
export async function withdrawQuestion(syndicate: CompiledSyndicate, store: Store, sessionId: string, asked: TurnRecord): Promise<string[]> {
  const waits = [...(asked.remoteConversations ?? [])].filter(([, conversation]) => conversation.waitingTaskId !== '');
  const cancelled = await Promise.all(waits.map(([name, conversation]) => syndicate.agents.get(name)?.remote?.withdraw(sessionId, conversation)));
  const warnings = cancelled.filter((warning) => warning !== undefined);
  const envelope = { turnId: asked.turnId, agent: syndicate.root.name, depth: 0, at: Date.now(), delegationId: undefined };
  const events: TurnEvent[] = [{ ...envelope, type: 'question-withdrawn' }, ...warnings.map((message): TurnEvent => ({ ...envelope, type: 'warning', message }))];
  try {
    recordAppended(store, sessionId, events, await store.appendEvents(sessionId, events));
  } catch (error) {
    warnings.push(`The session could not record that the question was withdrawn: ${errorMessage(error)}`);
  }
  return warnings;
}
