import { TaskState, type Task } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import type { CompiledSyndicate } from '../runtime/compileSyndicate.js';
import { runTurn, type RunTurnOptions, type TurnObserver } from '../runtime/runTurn.js';
import type { TurnStatus } from '../runtime/events.js';
import type { Store } from '../store/store.js';
import { callerOfUser, ownerOf, siloOf, type Caller } from './caller.js';
import { agentMessage, inputTextOf } from './messages.js';
import { startsConversation, waitsForWholeTask } from './requestHandler.js';
import { createTurnPublisher } from './turnPublisher.js';

// A task is one turn. The task's contextId names the session, so a conversation continues across
// tasks and across restarts; the session id also carries the agent and the caller, so a caller
// who guesses another's contextId reaches a conversation of their own, never the other one.

/** What the executor knows about one task's turn before it starts. */
export interface A2aTurnRequest {
  agentId: string;
  taskId: string;
  contextId: string;
  sessionId: string;
  input: string;
  caller: Caller;
  /** The memory silo this request may use (caller + optional user id; see caller.ts). */
  silo: string;
}

export interface TurnExecutorOptions {
  agentId: string;
  syndicate: CompiledSyndicate;
  store: Store;
  observers?: readonly TurnObserver[];
  /** More options for a task's turn, from its request: memory for its silo, a usage ledger for its session. */
  turnOptions?: (request: A2aTurnRequest) => Partial<RunTurnOptions> | Promise<Partial<RunTurnOptions>>;
  /** Called once the task's turn has ended, however it ended (not awaited). */
  afterTurn?: (request: A2aTurnRequest, status: TurnStatus) => void;
  /** Told, before its first event, of each task whose id the SDK has just minted (see BufferedTaskStore.minted). */
  mintedTask?: (taskId: string) => void;
}

const NO_INPUT = 'The message has no text: send the request as a text part (or a data part, which is read as JSON).';

/**
 * The owner part never holds ':' beyond its own separator (user ids cannot), and the contextId's
 * ':' and '%' are escaped: a caller cannot write "<user id>:" into a contextId to land in that
 * user's session. Context ids without them (the UUIDs the SDK mints) keep their session ids.
 */
export function sessionIdFor(agentId: string, caller: Caller, contextId: string): string {
  return `a2a:${agentId}:${ownerOf(caller)}:${contextId.replaceAll('%', '%25').replaceAll(':', '%3A')}`;
}

export function publishStatus(bus: ExecutionEventBus, taskId: string, contextId: string, state: TaskState, text?: string): void {
  const message = text === undefined ? undefined : agentMessage(text, taskId, contextId);
  bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: { state, message, timestamp: new Date().toISOString() }, metadata: undefined }));
}

/** Every execution starts with the task itself (the SDK refuses a stream that does not). */
export function taskOf(context: RequestContext, state: TaskState = TaskState.TASK_STATE_SUBMITTED): Task {
  const status = { state, message: undefined, timestamp: new Date().toISOString() };
  if (context.task) return { ...context.task, status };
  return { id: context.taskId, contextId: context.contextId, status, artifacts: [], history: [context.userMessage], metadata: undefined };
}

export function createTurnExecutor(options: TurnExecutorOptions): AgentExecutor {
  const { agentId, syndicate, store } = options;
  const running = new Map<string, AbortController>();
  // Tasks whose turn ended asking the caller a question; cancelling one has no turn to abort.
  const waiting = new Map<string, string>();

  return {
    async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
      const { taskId, contextId } = context;
      const caller = callerOfUser(context.context.user);
      waiting.delete(taskId);
      // A message that names no task gets a task id minted by the SDK; one that names a missing task is refused before this.
      if (context.task === undefined) options.mintedTask?.(taskId);
      const input = inputTextOf(context.userMessage);
      if (input === undefined) {
        bus.publish(AgentEvent.task(taskOf(context)));
        publishStatus(bus, taskId, contextId, TaskState.TASK_STATE_FAILED, NO_INPUT);
        return;
      }
      // The turn starts now, so the task starts working: a separate `working` update would cost
      // the SDK another load, clone and save of the task.
      bus.publish(AgentEvent.task(taskOf(context, TaskState.TASK_STATE_WORKING)));
      const request: A2aTurnRequest = {
        agentId,
        taskId,
        contextId,
        sessionId: sessionIdFor(agentId, caller, contextId),
        input,
        caller,
        silo: siloOf(caller, syndicate.name),
      };
      const controller = new AbortController();
      running.set(taskId, controller);
      const streamed = !waitsForWholeTask(context.context);
      const publish = createTurnPublisher(bus, taskId, contextId, streamed);
      try {
        const turn = runTurn(syndicate, {
          input,
          sessionId: request.sessionId,
          newSession: startsConversation(context.context),
          store,
          signal: controller.signal,
          stream: streamed,
          observers: options.observers,
          ...(await options.turnOptions?.(request)),
        });
        let status: TurnStatus = 'failed';
        for await (const event of turn) {
          if (event.type === 'turn-end') status = event.status;
          if (event.type === 'turn-end' && event.status === 'input-required') waiting.set(taskId, contextId);
          publish(event);
        }
        options.afterTurn?.(request, status);
      } finally {
        running.delete(taskId);
      }
    },

    async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
      const turn = running.get(taskId);
      // The turn ends cancelled, and its own turn-end publishes the canceled state.
      if (turn) return turn.abort();
      const contextId = waiting.get(taskId);
      if (contextId === undefined) return;
      waiting.delete(taskId);
      publishStatus(bus, taskId, contextId, TaskState.TASK_STATE_CANCELED, 'Cancelled while waiting for input.');
    },
  };
}
