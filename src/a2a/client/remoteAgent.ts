import type { RemoteAgentSpec } from '../../config/definition.js';
import type { RemoteAgent } from '../../runtime/compileSyndicate.js';
import { errorMessage } from '../../core/errors.js';
import type { RemoteConversation, TurnRecord } from '../../runtime/projectTranscript.js';
import type { TurnContext } from '../../runtime/turnContext.js';
import { UserInputRequired } from '../../tools/builtin/askUser.js';
import { connectRemoteAgent, type RemoteConnection } from './connect.js';
import { cancelTask, runRemoteTask, type RemoteOutcome } from './remoteTask.js';
import type { A2aClientSettings } from './settings.js';

// A remote A2A agent as a subagent. Its card is fetched at the first use and kept until a request
// fails; a failed fetch is tried again at the next use. Each of our sessions keeps one remote
// context, so the remote agent sees one conversation across turns. A remote task that asks for
// input ends our turn the way ask_user does: the user sees the question, and the session's next
// request to the agent (their answer) continues that same remote task, unless the question is
// withdrawn (our task that asked it was cancelled): then that remote task is cancelled too.

// Conversations are kept in the process, and stored in the session as `remote-conversation`
// events, so a later turn in another process (the next `syndicate run --session`) continues them
// from the session's recent turns. Beyond this many sessions the oldest is forgotten here.
const MAX_CONVERSATIONS = 1_000;

/** The latest state a stored turn recorded for this agent. */
function storedConversation(history: readonly TurnRecord[], name: string): RemoteConversation | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const conversation = history[i]!.remoteConversations?.get(name);
    if (conversation) return conversation;
  }
  return undefined;
}

export function createRemoteAgent(name: string, spec: RemoteAgentSpec, settings: A2aClientSettings): RemoteAgent {
  let connection: Promise<RemoteConnection> | undefined;
  const conversations = new Map<string, RemoteConversation>();

  const connect = (signal: AbortSignal): Promise<RemoteConnection> => {
    connection ??= connectRemoteAgent(spec, settings, signal).catch((error: unknown) => {
      connection = undefined;
      throw error;
    });
    return connection;
  };

  const remember = (sessionId: string, conversation: RemoteConversation): void => {
    conversations.delete(sessionId);
    if (conversations.size >= MAX_CONVERSATIONS) conversations.delete(conversations.keys().next().value as string);
    conversations.set(sessionId, conversation);
  };

  /** This process's view first: it includes the requests of the running turn, which the stored history does not. */
  const conversationOf = (turn: TurnContext): RemoteConversation | undefined => {
    const session = turn.sessionId;
    if (session === undefined) return undefined;
    return conversations.get(session) ?? storedConversation(turn.history, name);
  };

  const record = (turn: TurnContext, depth: number, conversation: RemoteConversation): void => {
    if (conversation.contextId === '') return;
    if (turn.sessionId !== undefined) remember(turn.sessionId, conversation);
    turn.emit(name, depth, { type: 'remote-conversation', ...conversation });
  };

  return {
    async describe(signal) {
      const { card } = await connect(signal);
      if (card.description.trim() === '') throw new Error(`the agent card of ${name} has no description: give this subagent a description in the file`);
      return card.description;
    },

    async run(turn, input, depth) {
      const { client } = await connect(turn.signal);
      const { contextId, waitingTaskId: taskId } = conversationOf(turn) ?? { contextId: '', waitingTaskId: '' };
      // Taken before the call: a parallel request must not continue the same task.
      if (taskId !== '' && turn.sessionId !== undefined) remember(turn.sessionId, { contextId, waitingTaskId: '' });
      let outcome: RemoteOutcome;
      try {
        outcome = await runRemoteTask(turn, { client, name, depth, input, contextId, taskId, cancelTimeoutMs: settings.cancelTimeoutMs });
      } catch (error) {
        // The agent may have moved or changed its card (a restart on another port): the next use fetches it again.
        if (!turn.signal.aborted) connection = undefined;
        // Continuing the task failed (or was cancelled with our turn): the next request starts a new one.
        if (taskId !== '') record(turn, depth, { contextId, waitingTaskId: '' });
        throw error;
      }
      record(turn, depth, { contextId: outcome.contextId, waitingTaskId: outcome.kind === 'input-required' ? outcome.taskId : '' });
      if (outcome.kind === 'answer') {
        turn.emit(name, depth, { type: 'message', text: outcome.text });
        return outcome.text;
      }
      // Stored as the agent's message, so the answer's turn sees what was asked (and whom it answers).
      turn.emit(name, depth, { type: 'message', text: outcome.question });
      throw new UserInputRequired(name, outcome.question);
    },

    async withdraw(sessionId, { contextId, waitingTaskId }) {
      // Forgotten before the cancel: a request meanwhile starts a new task rather than answer this one.
      remember(sessionId, { contextId, waitingTaskId: '' });
      // One deadline for reaching the agent (its card, when not fetched yet) and cancelling.
      const signal = AbortSignal.timeout(settings.cancelTimeoutMs);
      let failure: string | undefined;
      try {
        failure = await cancelTask((await connect(signal)).client, waitingTaskId, signal);
      } catch (error) {
        failure = errorMessage(error);
      }
      return failure && `Could not cancel the task ${waitingTaskId} of the remote agent ${name}, which may still wait for an answer: ${failure}`;
    },
  };
}
