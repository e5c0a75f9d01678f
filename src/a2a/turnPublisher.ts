import { TaskState, type Artifact, type Message, type Task } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutionEvent, type ExecutionEventBus } from '@a2a-js/sdk/server';
import { delegateKindNote, type TurnEvent, type TurnEventOf, type TurnStatus } from '../core/events.js';
import { ASK_USER } from '../tools/builtin/askUser.js';
import { agentMessage, textPart } from './messages.js';

// Maps one turn's event stream onto A2A task updates: progress as `working` status messages, the
// answer as chunks of one artifact, and the turn's end as the task's final state. The CLI's
// trace printer reads the same stream; nothing here re-runs any part of the turn.

export const ANSWER_ARTIFACT = 'answer';

/**
 * The task metadata key naming the turn whose question an input-required task waits on: a cancel
 * after a restart withdraws that question only if it is still the session's open one.
 */
export const ASKED_IN_TURN = 'syndicateAskedInTurn';

const FINAL_STATES: Record<TurnStatus, TaskState> = {
  completed: TaskState.TASK_STATE_COMPLETED,
  failed: TaskState.TASK_STATE_FAILED,
  cancelled: TaskState.TASK_STATE_CANCELED,
  'input-required': TaskState.TASK_STATE_INPUT_REQUIRED,
};

/** What a progress event tells the caller, or undefined for events that are not progress. */
function progressOf(event: TurnEvent): string | undefined {
  switch (event.type) {
    case 'route':
      return `Routed to ${event.route}${delegateKindNote(event.kind)} — ${event.reason}`;
    case 'delegation-start':
      return `Consulting ${event.to}${delegateKindNote(event.kind)}`;
    case 'tool-call':
      return event.tool === ASK_USER ? undefined : `Using ${event.tool}`;
    case 'status':
      return event.message;
    case 'warning':
      return `Warning: ${event.message}`;
    default:
      return undefined;
  }
}

function finalMessageOf(event: TurnEventOf<'turn-end'>): string | undefined {
  if (event.status === 'input-required') return event.output;
  return event.error;
}

function answerArtifact(text: string): Artifact {
  return { artifactId: ANSWER_ARTIFACT, name: ANSWER_ARTIFACT, description: '', parts: [textPart(text)], metadata: undefined, extensions: [] };
}

/** The status update that ends a turn waiting for the caller's input, naming the turn that asked. */
function inputRequired(taskId: string, contextId: string, event: TurnEventOf<'turn-end'>): AgentExecutionEvent {
  const status = { state: TaskState.TASK_STATE_INPUT_REQUIRED, message: agentMessage(event.output, taskId, contextId), timestamp: new Date().toISOString() };
  return AgentEvent.statusUpdate({ taskId, contextId, status, metadata: { [ASKED_IN_TURN]: event.turnId } });
}

/**
 * For a caller that reads only the finished task (a blocking SendMessage): nothing goes out while
 * the turn runs, and its end is one Task event with the outcome, the answer, and the progress
 * messages in its history, where the SDK's status updates would have put them. Every event costs
 * the SDK a load, clone and save of the task. A turn that ends waiting for input still ends with
 * its status update: the SDK keeps such a task's bus open until one arrives.
 */
export function createWholeTaskPublisher(bus: ExecutionEventBus, start: Task): (event: TurnEvent) => void {
  const { id: taskId, contextId } = start;
  const progress: Message[] = [];
  return (event) => {
    if (event.type !== 'turn-end') {
      const text = progressOf(event);
      if (text !== undefined) progress.push(agentMessage(text, taskId, contextId));
      return;
    }
    const history = [...start.history, ...progress];
    if (event.status === 'input-required') {
      bus.publish(AgentEvent.task({ ...start, history }));
      bus.publish(inputRequired(taskId, contextId, event));
      return;
    }
    const text = finalMessageOf(event);
    const message = text === undefined ? undefined : agentMessage(text, taskId, contextId);
    const artifacts = event.status === 'completed' ? [...start.artifacts, answerArtifact(event.output)] : start.artifacts;
    const status = { state: FINAL_STATES[event.status], message, timestamp: new Date().toISOString() };
    bus.publish(AgentEvent.task({ ...start, status, artifacts, history: message === undefined ? history : [...history, message] }));
  };
}

export function createTurnPublisher(bus: ExecutionEventBus, taskId: string, contextId: string): (event: TurnEvent) => void {
  // Who answers the caller: the root, or the specialist a dispatching root routes the turn to.
  let answering = { agent: '', depth: 0 };
  let streamed = '';
  // Deltas are held until the event loop turns, and go out as one chunk: a model answering from
  // memory (the scripted model, a local cache) produces its whole answer in one turn, and every
  // chunk costs the SDK a load, clone and save of the task. A model streaming over the network
  // yields between deltas, so its answer still streams.
  let held: string | undefined;
  let releasing = false;

  const status = (state: TaskState, text: string | undefined): void => {
    const message = text === undefined ? undefined : agentMessage(text, taskId, contextId);
    bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: { state, message, timestamp: new Date().toISOString() }, metadata: undefined }));
  };
  const chunk = (text: string, append: boolean, lastChunk: boolean): void => {
    bus.publish(AgentEvent.artifactUpdate({ taskId, contextId, artifact: answerArtifact(text), append, lastChunk, metadata: undefined }));
  };
  const release = (): void => {
    if (held === undefined) return;
    chunk(held, streamed.length > held.length, false);
    held = undefined;
  };
  const releaseSoon = (): void => {
    if (releasing) return;
    releasing = true;
    setImmediate(() => {
      releasing = false;
      release();
    });
  };
  const finishAnswer = (output: string): void => {
    if (streamed !== '' && streamed === output) {
      // What is still held goes out marked last; with nothing held, an empty last chunk closes it.
      chunk(held ?? '', held === undefined || streamed.length > held.length, true);
    } else {
      // Nothing streamed, or the answer is not what streamed (text before a tool call, a repaired
      // structured reply): the whole answer replaces the artifact.
      chunk(output, false, true);
    }
    held = undefined;
  };

  return (event) => {
    switch (event.type) {
      case 'turn-start':
        answering = { agent: event.agent, depth: event.depth };
        return;
      case 'text-delta':
        if (event.agent !== answering.agent || event.depth !== answering.depth) return;
        held = (held ?? '') + event.delta;
        streamed += event.delta;
        releaseSoon();
        return;
      case 'turn-end':
        if (event.status === 'completed') finishAnswer(event.output);
        if (event.status === 'input-required') return void bus.publish(inputRequired(taskId, contextId, event));
        status(FINAL_STATES[event.status], finalMessageOf(event));
        return;
      default: {
        if (event.type === 'route' && event.agent === answering.agent && event.depth === answering.depth) {
          answering = { agent: event.route, depth: event.depth + 1 };
        }
        const progress = progressOf(event);
        if (progress === undefined) return;
        release();
        status(TaskState.TASK_STATE_WORKING, progress);
      }
    }
  };
}
