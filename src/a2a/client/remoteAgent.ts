import type { RemoteAgentSpec } from '../../config/definition.js';
import type { RemoteAgent } from '../../runtime/compileSyndicate.js';
import { connectRemoteAgent, type RemoteConnection } from './connect.js';
import { runRemoteTask, type RemoteOutcome } from './remoteTask.js';
import type { A2aClientSettings } from './settings.js';

// A remote A2A agent as a subagent. Its card is fetched at the first use and kept until a request
// fails; a failed fetch is tried again at the next use. Each of our sessions keeps one remote context, so the remote
// agent sees one conversation across turns, and a task that asked for input is continued by the
// session's next request to it.

interface Conversation {
  contextId: string;
  /** A task of this conversation that waits for input. */
  waitingTaskId: string;
}

// Contexts live as long as the process; beyond this many sessions the oldest is forgotten (its
// next request starts a new remote context).
const MAX_CONVERSATIONS = 1_000;

function inputRequiredResult(name: string, question: string): string {
  return `${name} needs more input before it can finish. It asks: "${question}" Ask the user, then consult ${name} again with their answer: it will continue the same task.`;
}

export function createRemoteAgent(name: string, spec: RemoteAgentSpec, settings: A2aClientSettings): RemoteAgent {
  let connection: Promise<RemoteConnection> | undefined;
  const conversations = new Map<string, Conversation>();

  const connect = (signal: AbortSignal): Promise<RemoteConnection> => {
    connection ??= connectRemoteAgent(spec, settings, signal).catch((error: unknown) => {
      connection = undefined;
      throw error;
    });
    return connection;
  };

  const remember = (sessionId: string, conversation: Conversation): void => {
    conversations.delete(sessionId);
    if (conversations.size >= MAX_CONVERSATIONS) conversations.delete(conversations.keys().next().value as string);
    conversations.set(sessionId, conversation);
  };

  return {
    async describe(signal) {
      const { card } = await connect(signal);
      if (card.description.trim() === '') throw new Error(`the agent card of ${name} has no description: give this subagent a description in the file`);
      return card.description;
    },

    async run(turn, input, depth) {
      const { client } = await connect(turn.signal);
      const session = turn.sessionId;
      const conversation = session === undefined ? undefined : conversations.get(session);
      const taskId = conversation?.waitingTaskId ?? '';
      // Taken before the call: if continuing the task fails, the next request starts a new one.
      if (conversation) conversation.waitingTaskId = '';
      let outcome: RemoteOutcome;
      try {
        outcome = await runRemoteTask(turn, { client, name, depth, input, contextId: conversation?.contextId ?? '', taskId, cancelTimeoutMs: settings.cancelTimeoutMs });
      } catch (error) {
        // The agent may have moved or changed its card (a restart on another port): the next use fetches it again.
        if (!turn.signal.aborted) connection = undefined;
        throw error;
      }
      const waitingTaskId = outcome.kind === 'input-required' ? outcome.taskId : '';
      if (session !== undefined && outcome.contextId !== '') remember(session, { contextId: outcome.contextId, waitingTaskId });
      if (outcome.kind === 'answer') {
        turn.emit(name, depth, { type: 'message', text: outcome.text });
        return outcome.text;
      }
      // Stored as the agent's message, so the next turn's agents see what it asked.
      turn.emit(name, depth, { type: 'message', text: outcome.question });
      turn.emit(name, depth, { type: 'status', message: `Remote agent ${name} is waiting for input: ${outcome.question}` });
      return inputRequiredResult(name, outcome.question);
    },
  };
}
