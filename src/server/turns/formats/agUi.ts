import { EventType, type BaseEvent } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';
import type { TurnEvent } from '../../../core/events.js';
import type { StreamedEvent } from '../liveTurn.js';
import type { StreamFormat } from './streamFormat.js';

// AG-UI events, what @ag-ui/client's HttpAgent and CopilotKit read. A turn is a run; the main run's
// text (events outside any delegation) is one assistant text message per model step and its
// thinking a reasoning message; tool calls at any depth are tool calls (delegations too, named
// after the agent they went to). Each delegation is also a step (STEP_STARTED/FINISHED, named
// "<agent> <callId>", so parallel ones stay apart) and a CUSTOM `syndicate.delegation` event with
// its place in the tree; the route is a CUSTOM `syndicate.route` event.

export interface AgUiRun {
  threadId: string;
  runId: string;
}

/** What a CUSTOM syndicate.delegation event's value holds. */
export interface AgUiDelegation {
  callId: string;
  agent: string;
  parent: string | null;
  depth: number;
  status: 'running' | 'completed' | 'failed';
}

const stepName = (agent: string, callId: string): string => `${agent} ${callId}`;

/** Maps a turn's events, in order, to AG-UI events; one mapper per stream. */
export function createAgUiMapper(run: AgUiRun): (event: TurnEvent) => BaseEvent[] {
  let parts = 0;
  let text: string | undefined;
  let reasoning: string | undefined;
  let finished = false;

  const closeText = (out: BaseEvent[]): void => {
    if (text !== undefined) out.push({ type: EventType.TEXT_MESSAGE_END, messageId: text } as BaseEvent);
    text = undefined;
  };
  const closeReasoning = (out: BaseEvent[]): void => {
    if (reasoning !== undefined) out.push({ type: EventType.REASONING_MESSAGE_END, messageId: reasoning } as BaseEvent, { type: EventType.REASONING_END, messageId: reasoning } as BaseEvent);
    reasoning = undefined;
  };
  const openText = (out: BaseEvent[]): string => {
    closeReasoning(out);
    if (text === undefined) {
      text = `${run.runId}-${++parts}`;
      out.push({ type: EventType.TEXT_MESSAGE_START, messageId: text, role: 'assistant' } as BaseEvent);
    }
    return text;
  };
  const openReasoning = (out: BaseEvent[]): string => {
    closeText(out);
    if (reasoning === undefined) {
      reasoning = `${run.runId}-${++parts}`;
      out.push({ type: EventType.REASONING_START, messageId: reasoning } as BaseEvent, { type: EventType.REASONING_MESSAGE_START, messageId: reasoning, role: 'reasoning' } as BaseEvent);
    }
    return reasoning;
  };
  const toolCall = (out: BaseEvent[], toolCallId: string, name: string, input: unknown): void => {
    out.push(
      { type: EventType.TOOL_CALL_START, toolCallId, toolCallName: name } as BaseEvent,
      { type: EventType.TOOL_CALL_ARGS, toolCallId, delta: JSON.stringify(input ?? {}) } as BaseEvent,
      { type: EventType.TOOL_CALL_END, toolCallId } as BaseEvent,
    );
  };
  const toolResult = (out: BaseEvent[], toolCallId: string, output: unknown): void => {
    out.push({ type: EventType.TOOL_CALL_RESULT, messageId: `${toolCallId}-result`, toolCallId, role: 'tool', content: typeof output === 'string' ? output : JSON.stringify(output) } as BaseEvent);
  };

  return (event) => {
    const out: BaseEvent[] = [];
    const main = event.delegationId === undefined;
    switch (event.type) {
      case 'turn-start':
        out.push({ type: EventType.RUN_STARTED, threadId: run.threadId, runId: run.runId } as BaseEvent);
        break;
      case 'text-delta':
        if (main && event.delta !== '') out.push({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: openText(out), delta: event.delta } as BaseEvent);
        break;
      case 'message':
        if (!main) break;
        if (text === undefined && event.text !== '') out.push({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: openText(out), delta: event.text } as BaseEvent);
        closeText(out);
        break;
      case 'thinking-delta':
        if (main && event.delta !== '') out.push({ type: EventType.REASONING_MESSAGE_CONTENT, messageId: openReasoning(out), delta: event.delta } as BaseEvent);
        break;
      case 'thinking':
        if (!main) break;
        if (reasoning === undefined && event.text !== '') out.push({ type: EventType.REASONING_MESSAGE_CONTENT, messageId: openReasoning(out), delta: event.text } as BaseEvent);
        closeReasoning(out);
        break;
      case 'tool-call':
        if (main) closeText(out);
        toolCall(out, event.callId, event.tool, event.input);
        break;
      case 'tool-result':
        toolResult(out, event.callId, event.output);
        break;
      case 'delegation-start': {
        if (main) closeText(out);
        const delegation: AgUiDelegation = { callId: event.callId, agent: event.to, parent: event.delegationId ?? null, depth: event.depth + 1, status: 'running' };
        out.push({ type: EventType.STEP_STARTED, stepName: stepName(event.to, event.callId) } as BaseEvent, { type: EventType.CUSTOM, name: 'syndicate.delegation', value: delegation } as BaseEvent);
        toolCall(out, event.callId, event.to, { request: event.request });
        break;
      }
      case 'delegation-end': {
        const delegation: AgUiDelegation = { callId: event.callId, agent: event.to, parent: event.delegationId ?? null, depth: event.depth + 1, status: event.isError ? 'failed' : 'completed' };
        toolResult(out, event.callId, event.output);
        out.push({ type: EventType.CUSTOM, name: 'syndicate.delegation', value: delegation } as BaseEvent, { type: EventType.STEP_FINISHED, stepName: stepName(event.to, event.callId) } as BaseEvent);
        break;
      }
      case 'route':
        out.push({ type: EventType.CUSTOM, name: 'syndicate.route', value: { route: event.route, reason: event.reason, source: event.source } } as BaseEvent);
        break;
      case 'turn-end':
        if (finished) break;
        finished = true;
        closeText(out);
        closeReasoning(out);
        out.push(
          event.status === 'completed' || event.status === 'input-required'
            ? ({ type: EventType.RUN_FINISHED, threadId: run.threadId, runId: run.runId, result: { status: event.status, output: event.output } } as BaseEvent)
            : ({ type: EventType.RUN_ERROR, message: event.error ?? `the turn ended ${event.status}`, code: event.status } as BaseEvent),
        );
        break;
      default:
        break;
    }
    return out;
  };
}

export function agUiFormat(run: AgUiRun): StreamFormat {
  const map = createAgUiMapper(run);
  const encoder = new EventEncoder();
  return {
    headers: {},
    encode: ({ event }: StreamedEvent) => map(event).map((agUiEvent) => encoder.encodeSSE(agUiEvent)).join(''),
    close: () => '',
  };
}
