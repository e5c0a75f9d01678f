import { TaskState } from '@a2a-js/sdk';
import { AgentEvent, type ExecutionEventBus } from '@a2a-js/sdk/server';
import type { TurnEvent, TurnEventOf, TurnStatus } from '../runtime/events.js';
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
      return `Routed to ${event.route} — ${event.reason}`;
    case 'delegation-start':
      return `Consulting ${event.to}`;
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

/**
 * `streamAnswer` false: the caller reads only the finished task (a blocking SendMessage), so the
 * answer goes out whole at the end, as one chunk, instead of as the deltas arrive.
 */
export function createTurnPublisher(bus: ExecutionEventBus, taskId: string, contextId: string, streamAnswer = true): (event: TurnEvent) => void {
  // Who answers the caller: the root, or the specialist a dispatching root routes the turn to.
  let answering = { agent: '', depth: 0 };
  let streamed = '';
  // Deltas are held until the event loop turns, and go out as one chunk: a model answering from
  // memory (the scripted model, a local cache) produces its whole answer in one turn, and every
  // chunk costs the SDK a load, clone and save of the task. A model streaming over the network
  // yields between deltas, so its answer still streams.
  let held: string | undefined;
  let releasing = false;

  const status = (state: TaskState, text: string | undefined, metadata?: Record<string, string>): void => {
    const message = text === undefined ? undefined : agentMessage(text, taskId, contextId);
    bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: { state, message, timestamp: new Date().toISOString() }, metadata }));
  };
  const chunk = (text: string, append: boolean, lastChunk: boolean): void => {
    const artifact = { artifactId: ANSWER_ARTIFACT, name: ANSWER_ARTIFACT, description: '', parts: [textPart(text)], metadata: undefined, extensions: [] };
    bus.publish(AgentEvent.artifactUpdate({ taskId, contextId, artifact, append, lastChunk, metadata: undefined }));
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
        if (!streamAnswer || event.agent !== answering.agent || event.depth !== answering.depth) return;
        held = (held ?? '') + event.delta;
        streamed += event.delta;
        releaseSoon();
        return;
      case 'turn-end':
        if (event.status === 'completed') finishAnswer(event.output);
        status(FINAL_STATES[event.status], finalMessageOf(event), event.status === 'input-required' ? { [ASKED_IN_TURN]: event.turnId } : undefined);
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
