import { TaskState, type AgentCard, type CancelTaskRequest, type Message, type SendMessageRequest, type StreamResponse, type Task } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import { DefaultRequestHandler, type ServerCallContext, type TaskStore } from '@a2a-js/sdk/server';
import { isRunning } from './cancelElsewhere.js';
import { unacceptedOutput } from './outputModes.js';

// The SDK's request handler with what our executor needs to know about a call before its turn
// runs, and with the checks the SDK leaves to the agent.

// Calls that wait for the whole task (a blocking SendMessage). The SDK hands the executor the same
// ServerCallContext, so the executor can ask.
const waitingForWholeTask = new WeakSet<ServerCallContext>();

/**
 * True when the caller only reads the finished task: its turn fetches each model step whole, which
 * costs less than streaming it (a ReadableStream and a delta event per chunk), and the task is
 * published once, finished (see createWholeTaskPublisher).
 */
export function waitsForWholeTask(context: ServerCallContext): boolean {
  return waitingForWholeTask.has(context);
}

// Calls that start a conversation: the SDK mints the contextId of a message that names neither a
// context nor a task, so the conversation's session is new and there is nothing to look up.
const startingConversation = new WeakSet<ServerCallContext>();

export function startsConversation(context: ServerCallContext): boolean {
  return startingConversation.has(context);
}

/** What a syndicate's cancel needs beyond the SDK's (see SyndicateRequestHandler.cancelTask). */
export interface CancelFollowUp {
  tasks: TaskStore;
  /** Whether this process runs the task's turn now. */
  runsHere(taskId: string): boolean;
  /** Has the server running the task stop its turn, resolving once the task has settled (see cancelElsewhere.ts). */
  cancelElsewhere(task: Task, context: ServerCallContext): Promise<void>;
  /** Withdraws the question the canceled task waited on, if it is still open. */
  waitingCanceled(task: Task, context: ServerCallContext): Promise<void>;
}

/** The spec requires a message to carry at least one part: an empty one is the caller's mistake, not a failed task. */
function checkParts(params: SendMessageRequest): void {
  if ((params.message?.parts.length ?? 0) === 0) throw new RequestMalformedError('message.parts is empty: send at least one part (a text part holds the request)');
}

export class SyndicateRequestHandler extends DefaultRequestHandler {
  constructor(
    private readonly followUp: CancelFollowUp | undefined,
    /** The card of the syndicate's current version (a served file may be reloaded); the SDK keeps the first. */
    private readonly cardNow: () => AgentCard,
    ...handler: ConstructorParameters<typeof DefaultRequestHandler>
  ) {
    super(...handler);
  }

  override async getAgentCard(): Promise<AgentCard> {
    return this.cardNow();
  }

  /**
   * A task whose turn runs on another server would be marked canceled here by the SDK while its
   * turn went on there: that server stops the turn first, and saves the canceled state itself.
   * After a restart no event bus holds a task that waits for input, so the SDK cancels it without
   * calling the executor; the question it asked is withdrawn here instead, at the cancel.
   */
  override async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    const before = await this.followUp?.tasks.load(params.id, context);
    if (before !== undefined && isRunning(before) && !this.followUp!.runsHere(params.id)) await this.followUp!.cancelElsewhere(before, context);
    const canceled = await super.cancelTask(params, context);
    if (before?.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED) await this.followUp!.waitingCanceled(canceled, context);
    return canceled;
  }

  override async sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Message | Task> {
    checkParts(params);
    await this.checkOutputModes(params);
    this.noteNewConversation(params, context);
    // The SDK's own test for a blocking call (returnImmediately is 1.0's name for blocking: false).
    if (params.configuration?.returnImmediately !== true) waitingForWholeTask.add(context);
    return super.sendMessage(params, context);
  }

  override async *sendMessageStream(params: SendMessageRequest, context: ServerCallContext): AsyncGenerator<StreamResponse, void, undefined> {
    checkParts(params);
    await this.checkOutputModes(params);
    this.noteNewConversation(params, context);
    yield* super.sendMessageStream(params, context);
  }

  private noteNewConversation(params: SendMessageRequest, context: ServerCallContext): void {
    if (!params.message?.contextId && !params.message?.taskId) startingConversation.add(context);
  }

  /** A caller that accepts none of the card's output modes is refused before a turn runs whose answer it could not read. */
  private async checkOutputModes(params: SendMessageRequest): Promise<void> {
    const accepted = params.configuration?.acceptedOutputModes ?? [];
    if (accepted.length === 0) return;
    const error = unacceptedOutput(accepted, (await this.getAgentCard()).defaultOutputModes);
    if (error) throw error;
  }
}
