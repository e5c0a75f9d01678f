import { EventType, type BaseEvent, type Interrupt } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';
import type { TurnEvent, TurnEventOf } from '../../../core/events.js';
import type { StreamedEvent } from '../liveTurn.js';
import { brokenTurnEnd, type StreamFormat } from './streamFormat.js';
import { createRunParts, type PartChange } from './runParts.js';

// AG-UI events, what @ag-ui/client's HttpAgent and CopilotKit read. A turn is a run. Each
// delegation is a subagent (SUBAGENT_STARTED / FINISHED / ERROR, its subagentRunId the
// delegation's callId, spawned by the caller's tool call named after the agent, its
// metadata.syndicate.kind saying what it is) and a step of its
// caller (STEP_STARTED/FINISHED, named "<agent> <callId>", so parallel ones stay apart). Every
// agent's text, thinking and tool calls are messages, reasoning messages and tool calls carrying the
// subagentRunId of the delegation that ran the agent (none for the root run); a tool call's
// parentMessageId is the message of the model call that made it. The route is a CUSTOM
// `syndicate.route` event.
//
// However the turn ends, everything it opened is closed first, as the spec requires before
// RUN_FINISHED (and @ag-ui/client's verifier enforces): its text and reasoning end, a call it cut
// short is answered with a TOOL_CALL_RESULT saying so (unanswered, a client takes it for a
// frontend tool call it must answer), and a delegation still running ends suspended (a subagent
// asked the user; the one that asked names the interrupt) or in error, with its step. Then a
// completed turn is RUN_FINISHED; an input-required one (ask_user, or a remote agent asking)
// RUN_FINISHED with the interrupt outcome, the spec's only way to end a run that asks: one
// interrupt, the question, its id the turn's id, which a later run's `resume` answers
// (agUiRoutes). A cancelled turn is RUN_FINISHED with the cancelled outcome (the spec's word for a
// run stopped on purpose, not a failure), and a failed one RUN_ERROR.

export interface AgUiRun {
  threadId: string;
  runId: string;
}

interface Delegation {
  agent: string;
  /** The delegation whose run made this one; undefined for the root run. */
  parent: string | undefined;
}

const stepName = (agent: string, callId: string): string => `${agent} ${callId}`;

/** The subagentRunId field of what a run makes: none for the root run. */
const madeBy = (run: string | undefined): { subagentRunId?: string } => (run === undefined ? {} : { subagentRunId: run });

const toolContent = (output: unknown): string => (typeof output === 'string' ? output : JSON.stringify(output));

function partEvent(change: PartChange): BaseEvent[] {
  const { kind, id: messageId, run } = change.part;
  const by = madeBy(run);
  if (kind === 'text') {
    if (change.change === 'open') return [{ type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant', ...by } as BaseEvent];
    if (change.change === 'delta') return [{ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: change.delta, ...by } as BaseEvent];
    return [{ type: EventType.TEXT_MESSAGE_END, messageId, ...by } as BaseEvent];
  }
  if (change.change === 'open') return [{ type: EventType.REASONING_START, messageId, ...by } as BaseEvent, { type: EventType.REASONING_MESSAGE_START, messageId, role: 'reasoning', ...by } as BaseEvent];
  if (change.change === 'delta') return [{ type: EventType.REASONING_MESSAGE_CONTENT, messageId, delta: change.delta, ...by } as BaseEvent];
  return [{ type: EventType.REASONING_MESSAGE_END, messageId, ...by } as BaseEvent, { type: EventType.REASONING_END, messageId, ...by } as BaseEvent];
}

/** What a resume entry answering an interrupt carries as its payload: the answer, as text. */
const ANSWER_SCHEMA = { type: 'string', minLength: 1, description: 'The answer to the question, as text' };

/** What a turn that ended input-required waits for; `asker` is the agent that asked and the run it asked in. */
function interruptOf(end: TurnEventOf<'turn-end'>, asker: Said | undefined): Interrupt {
  return {
    id: end.turnId,
    reason: 'input_required',
    message: end.output,
    responseSchema: ANSWER_SCHEMA,
    ...madeBy(asker?.run),
    metadata: { syndicate: { agent: asker?.agent ?? end.agent } },
  };
}

interface Said {
  run: string | undefined;
  agent: string;
  text: string;
}

export interface AgUiMapper {
  (event: TurnEvent): BaseEvent[];
  /** The turn's stream is over: when it ended without its turn-end (the run broke outside the turn loop), ends the run failed. */
  end(): BaseEvent[];
}

/** Maps a turn's events, in order, to AG-UI events; one mapper per stream. */
export function createAgUiMapper(run: AgUiRun): AgUiMapper {
  const parts = createRunParts(`${run.runId}:`);
  const running = new Map<string, Delegation>();
  /** Tool calls (not delegations) still waiting for their result, and the run that made each. */
  const openCalls = new Map<string, string | undefined>();
  /** The last thing each run said, latest run last: an agent that asks says its question just before the turn ends. */
  const said = new Map<string | undefined, Said>();
  let turnId = '';
  let finished = false;

  const toolCall = (out: BaseEvent[], caller: string | undefined, toolCallId: string, name: string, input: unknown): void => {
    const by = madeBy(caller);
    out.push(
      ...parts.close(caller).flatMap(partEvent),
      { type: EventType.TOOL_CALL_START, toolCallId, toolCallName: name, parentMessageId: parts.messageId(caller), ...by } as BaseEvent,
      { type: EventType.TOOL_CALL_ARGS, toolCallId, delta: JSON.stringify(input ?? {}), ...by } as BaseEvent,
      { type: EventType.TOOL_CALL_END, toolCallId, ...by } as BaseEvent,
    );
  };
  const toolResult = (out: BaseEvent[], caller: string | undefined, toolCallId: string, output: unknown): void => {
    out.push({ type: EventType.TOOL_CALL_RESULT, messageId: `${toolCallId}-result`, toolCallId, role: 'tool', content: toolContent(output), ...madeBy(caller) } as BaseEvent);
  };
  // What the turn leaves open when it ends. A delegation still running when a subagent asked the
  // user is suspended, its call answered with the question, the one whose run asked naming the
  // interrupt; one a cancel or a failure cut short ends in error. Innermost first, each after the
  // calls made in it.
  const closeOpen = (out: BaseEvent[], end: TurnEventOf<'turn-end'>, interrupt: Interrupt | undefined): void => {
    const unanswered = `the turn ended ${end.status} before this call answered`;
    const suspended = end.status === 'completed' || end.status === 'input-required';
    for (const [callId, caller] of openCalls) toolResult(out, caller, callId, unanswered);
    openCalls.clear();
    for (const [callId, delegation] of [...running].reverse()) {
      const raised = interrupt?.subagentRunId === callId ? { interruptIds: [interrupt.id] } : {};
      out.push(
        suspended
          ? ({ type: EventType.SUBAGENT_FINISHED, subagentRunId: callId, outcome: { type: 'suspended', ...raised } } as BaseEvent)
          : ({ type: EventType.SUBAGENT_ERROR, subagentRunId: callId, message: unanswered, code: end.status } as BaseEvent),
      );
      toolResult(out, delegation.parent, callId, suspended ? end.output : unanswered);
      out.push({ type: EventType.STEP_FINISHED, stepName: stepName(delegation.agent, callId), ...madeBy(delegation.parent) } as BaseEvent);
    }
    running.clear();
  };

  const map = (event: TurnEvent): BaseEvent[] => {
    const out: BaseEvent[] = [];
    const caller = event.delegationId;
    if (finished) return out;
    out.push(...parts.changes(event).flatMap(partEvent));
    switch (event.type) {
      case 'turn-start':
        turnId = event.turnId;
        out.push({ type: EventType.RUN_STARTED, threadId: run.threadId, runId: run.runId } as BaseEvent);
        break;
      case 'tool-call':
        toolCall(out, caller, event.callId, event.tool, event.input);
        openCalls.set(event.callId, caller);
        break;
      case 'tool-result':
        openCalls.delete(event.callId);
        toolResult(out, caller, event.callId, event.output);
        break;
      case 'delegation-start': {
        toolCall(out, caller, event.callId, event.to, { request: event.request });
        running.set(event.callId, { agent: event.to, parent: caller });
        out.push(
          { type: EventType.STEP_STARTED, stepName: stepName(event.to, event.callId), ...madeBy(caller) } as BaseEvent,
          {
            type: EventType.SUBAGENT_STARTED,
            subagentRunId: event.callId,
            name: event.to,
            // A subagent, a mounted syndicate or a remote A2A agent; AG-UI has no field of its own for it.
            metadata: { syndicate: { kind: event.kind ?? 'subagent' } },
            parentToolCallId: event.callId,
            parentMessageId: parts.messageId(caller),
            ...(caller === undefined ? {} : { parentSubagentRunId: caller }),
          } as BaseEvent,
        );
        break;
      }
      case 'delegation-end':
        running.delete(event.callId);
        out.push(
          ...parts.close(event.callId).flatMap(partEvent),
          event.isError
            ? ({ type: EventType.SUBAGENT_ERROR, subagentRunId: event.callId, message: event.output } as BaseEvent)
            : ({ type: EventType.SUBAGENT_FINISHED, subagentRunId: event.callId, result: event.output } as BaseEvent),
        );
        toolResult(out, caller, event.callId, event.output);
        out.push({ type: EventType.STEP_FINISHED, stepName: stepName(event.to, event.callId), ...madeBy(caller) } as BaseEvent);
        break;
      case 'message':
        said.delete(caller);
        said.set(caller, { run: caller, agent: event.agent, text: event.text });
        break;
      case 'route':
        out.push({ type: EventType.CUSTOM, name: 'syndicate.route', value: { route: event.route, reason: event.reason, source: event.source } } as BaseEvent);
        break;
      case 'turn-end': {
        finished = true;
        const interrupt = event.status === 'input-required' ? interruptOf(event, [...said.values()].findLast((each) => each.text === event.output)) : undefined;
        closeOpen(out, event, interrupt);
        if (interrupt !== undefined) {
          out.push({ type: EventType.RUN_FINISHED, threadId: run.threadId, runId: run.runId, outcome: { type: 'interrupt', interrupts: [interrupt] } } as BaseEvent);
        } else if (event.status === 'completed') {
          out.push({ type: EventType.RUN_FINISHED, threadId: run.threadId, runId: run.runId, result: { status: event.status, output: event.output } } as BaseEvent);
        } else if (event.status === 'cancelled') {
          // A cancelled run has no return value (the spec: result SHOULD be absent).
          out.push({ type: EventType.RUN_FINISHED, threadId: run.threadId, runId: run.runId, outcome: { type: 'cancelled' } } as BaseEvent);
        } else out.push({ type: EventType.RUN_ERROR, message: event.error ?? `the turn ended ${event.status}`, code: event.status } as BaseEvent);
        break;
      }
      default:
        break;
    }
    return out;
  };
  const end = (): BaseEvent[] => map(brokenTurnEnd(turnId));
  return Object.assign(map, { end });
}

export function agUiFormat(run: AgUiRun): StreamFormat {
  const map = createAgUiMapper(run);
  const encoder = new EventEncoder();
  return {
    headers: {},
    encode: ({ event }: StreamedEvent) => map(event).map((agUiEvent) => encoder.encodeSSE(agUiEvent)).join(''),
    close: () => map.end().map((agUiEvent) => encoder.encodeSSE(agUiEvent)).join(''),
  };
}
