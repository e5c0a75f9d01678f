import { TaskState, type Task } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext, type ServerCallContext } from '@a2a-js/sdk/server';
import type { CompiledSyndicate } from '../runtime/compileSyndicate.js';
import { runTurn, type RunTurnOptions } from '../runtime/runTurn.js';
import type { TurnObserver, TurnStatus } from '../core/events.js';
import { openQuestion, storedHistory } from '../runtime/sessionHistory.js';
import { scopedSessionId } from '../runtime/sessionScope.js';
import type { Store } from '../store/store.js';
import { callerOfUser, ownerOf, siloOf, type Caller } from './caller.js';
import { agentMessage, inputTextOf } from './messages.js';
import { startsConversation, waitsForWholeTask } from './requestHandler.js';
import { ASKED_IN_TURN, createTurnPublisher, createWholeTaskPublisher } from './turnPublisher.js';
import { withdrawQuestion } from './withdrawQuestion.js';

// A task is one turn. The task's contextId names the session, so a conversation continues across
// tasks and across restarts; the session id also carries the agent and the caller, so a caller
// who guesses another's contextId reaches a conversation of their own, never the other one.

/** What the executor knows about one task's turn before it starts. */
export interface A2aTurnRequest {
  agentId: string;
  /** The version of the syndicate the turn runs. */
  syndicate: CompiledSyndicate;
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
  /** The version a new turn runs (a served file may be reloaded); a running turn keeps its own. */
  syndicate: () => CompiledSyndicate;
  store: Store;
  observers?: readonly TurnObserver[];
  /** More options for a task's turn, from its request: memory for its silo, a usage ledger for its session. */
  turnOptions?: (request: A2aTurnRequest) => Partial<RunTurnOptions> | Promise<Partial<RunTurnOptions>>;
  /** Called once the task's turn has ended, however it ended (not awaited). */
  afterTurn?: (request: A2aTurnRequest, status: TurnStatus) => void;
  /** Told, before its first event, of each task whose id the SDK has just minted (see BufferedTaskStore.minted). */
  mintedTask?: (taskId: string, seenAtOnce: boolean) => void;
}

/** A task whose turn ended asking the caller a question. */
interface WaitingTask {
  contextId: string;
  sessionId: string;
}

const NO_INPUT = 'The message has no text: send the request as a text part (or a data part, which is read as JSON).';

/**
 * The owner part never holds ':' beyond its own separator (user ids cannot), and the contextId's
 * ':' and '%' are escaped: a caller cannot write "<user id>:" into a contextId to land in that
 * user's session. Context ids without them (the UUIDs the SDK mints) keep their session ids.
 */
export function sessionIdFor(agentId: string, caller: Caller, contextId: string): string {
  return scopedSessionId(`a2a:${agentId}:${ownerOf(caller)}`, contextId);
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

/** The SDK's executor, plus what follows a cancel the SDK made without it (see SyndicateRequestHandler.cancelTask). */
export interface TurnExecutor extends AgentExecutor {
  /** Withdraws the question a canceled task waited on, if it is still the session's open one. */
  waitingCanceled(task: Task, context: ServerCallContext): Promise<void>;
  /** Whether this process runs the task's turn now. */
  runs(taskId: string): boolean;
  /** Stops the task's turn if this process runs it (a cancel another server heard); its turn-end publishes the canceled state. */
  abortTurn(taskId: string): void;
}

export function createTurnExecutor(options: TurnExecutorOptions): TurnExecutor {
  const { agentId, store } = options;
  const running = new Map<string, AbortController>();
  // Tasks whose turn ended asking the caller a question; cancelling one has no turn to abort.
  const waiting = new Map<string, WaitingTask>();
  // By session, the task whose question is still open: a later message in the session answers it
  // (whichever task it names), and cancelling a task whose question was answered withdraws nothing.
  const asking = new Map<string, string>();

  return {
    async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
      const { taskId, contextId } = context;
      const caller = callerOfUser(context.context.user);
      waiting.delete(taskId);
      const streamed = !waitsForWholeTask(context.context);
      // A message that names no task gets a task id minted by the SDK; one that names a missing task is refused before this.
      if (context.task === undefined) options.mintedTask?.(taskId, streamed);
      const input = inputTextOf(context.userMessage);
      if (input === undefined) {
        bus.publish(AgentEvent.task(taskOf(context)));
        publishStatus(bus, taskId, contextId, TaskState.TASK_STATE_FAILED, NO_INPUT);
        return;
      }
      // The turn starts now, so the task starts working: a separate `working` update would cost
      // the SDK another load, clone and save of the task. A caller that reads only the finished
      // task hears of it once, at the end (createWholeTaskPublisher).
      const start = taskOf(context, TaskState.TASK_STATE_WORKING);
      if (streamed) bus.publish(AgentEvent.task(start));
      const sessionId = sessionIdFor(agentId, caller, contextId);
      const syndicate = options.syndicate();
      const request: A2aTurnRequest = {
        agentId,
        syndicate,
        taskId,
        contextId,
        sessionId,
        input,
        caller,
        silo: siloOf(caller, syndicate.name),
      };
      asking.delete(sessionId);
      const controller = new AbortController();
      running.set(taskId, controller);
      const publish = streamed ? createTurnPublisher(bus, taskId, contextId) : createWholeTaskPublisher(bus, start);
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
          if (event.type === 'turn-end' && event.status === 'input-required') {
            waiting.set(taskId, { contextId, sessionId });
            asking.set(sessionId, taskId);
          }
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
      const task = waiting.get(taskId);
      if (task === undefined) return;
      waiting.delete(taskId);
      const warnings: string[] = [];
      if (asking.get(task.sessionId) === taskId) {
        asking.delete(task.sessionId);
        const asked = openQuestion(await storedHistory(store, task.sessionId));
        if (asked !== undefined) warnings.push(...(await withdrawQuestion(options.syndicate(), store, task.sessionId, asked)));
      }
      // The canceller hears what could not be cancelled; the cancel itself has happened either way.
      publishStatus(bus, taskId, task.contextId, TaskState.TASK_STATE_CANCELED, ['Cancelled while waiting for input.', ...warnings].join('\n'));
    },

    runs: (taskId) => running.has(taskId),

    abortTurn(taskId: string): void {
      running.get(taskId)?.abort();
    },

    async waitingCanceled(task: Task, context: ServerCallContext): Promise<void> {
      const turnId = task.metadata?.[ASKED_IN_TURN];
      if (typeof turnId !== 'string') return;
      const sessionId = sessionIdFor(agentId, callerOfUser(context.user), task.contextId);
      const asked = openQuestion(await storedHistory(store, sessionId));
      // Answered by a later message since, or withdrawn already by cancelTask: nothing to do.
      if (asked?.turnId !== turnId) return;
      // The SDK has set the canceled status itself: what could not be cancelled is in the session's warnings.
      await withdrawQuestion(options.syndicate(), store, sessionId, asked);
    },
  };
}
