import { context as otelContext, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { TurnEvent, TurnEventOf } from '../runtime/events.js';
import type { TurnObserver } from '../runtime/runTurn.js';
import { ATTR, contentString, ERROR_TYPE, finishReason, messagesJson, OPERATION, providerName } from './genAi.js';

// Turns a turn's event stream into GenAI spans: `invoke_agent` per agent run (delegations and
// dispatch routes nested under their caller), `chat` per model call, `execute_tool` per tool
// call. Every span is built from events alone, with the event's own timestamps, so the
// observer needs no hooks inside the runtime and adds nothing to a turn when not attached.

export interface TracingOptions {
  /** The session the turns belong to, recorded as gen_ai.conversation.id. */
  conversationId?: string;
  /** Record inputs, outputs, tool arguments and results (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT). */
  captureContent?: boolean;
}

interface AgentFrame {
  agent: string;
  depth: number;
  span: Span;
  context: Context;
  startedAt: number;
  /** Set once the agent's first model call names its provider and model. */
  modelKnown: boolean;
  /** The specialist a dispatcher handed the turn to: no event ends it, so it ends with this frame. */
  routed: AgentFrame | undefined;
  /** Streamed since the agent's last model call; kept only when content is captured. */
  text: string;
  reasoning: string;
}

interface TurnTrace {
  root: AgentFrame;
  /** Open agent frames by depth: one per depth, more when siblings run in parallel. */
  open: AgentFrame[][];
  delegations: Map<string, AgentFrame>;
  tools: Map<string, Span>;
  /** The code of the turn's `error` event, for error.type on the spans it ends. */
  errorCode: string | undefined;
}

interface ObserverState {
  tracer: Tracer;
  capture: boolean;
  conversationId: string | undefined;
  turns: Map<string, TurnTrace>;
}

export function createTracingObserver(tracer: Tracer, options: TracingOptions = {}): TurnObserver {
  const state: ObserverState = { tracer, capture: options.captureContent === true, conversationId: options.conversationId, turns: new Map() };
  return (event) => observe(state, event);
}

function observe(state: ObserverState, event: TurnEvent): void {
  switch (event.type) {
    case 'turn-start':
      return void startTurn(state, event.turnId, event.agent, event.at, event.input);
    case 'delegation-start':
      return startDelegation(state, turnOf(state, event), event);
    case 'delegation-end':
      return endDelegation(state, turnOf(state, event), event);
    case 'route':
      return startRoute(state, turnOf(state, event), event);
    case 'tool-call':
      return startTool(state, turnOf(state, event), event);
    case 'tool-result':
      return endTool(state, turnOf(state, event), event);
    case 'usage':
      return recordModelCall(state, turnOf(state, event), event);
    case 'text-delta':
      if (state.capture) frameOf(turnOf(state, event), event).text += event.delta;
      return;
    case 'thinking-delta':
      if (state.capture) frameOf(turnOf(state, event), event).reasoning += event.delta;
      return;
    case 'error':
      turnOf(state, event).errorCode = event.code;
      return;
    case 'turn-end':
      return endTurn(state, turnOf(state, event), event);
    default:
      return;
  }
}

function startTurn(state: ObserverState, turnId: string, agent: string, at: number, input: string | undefined): TurnTrace {
  // The active context is the caller's when a host application propagates one; else a new trace.
  const root = openAgent(state, agent, 0, at, otelContext.active(), turnId);
  const turn: TurnTrace = { root, open: [[root]], delegations: new Map(), tools: new Map(), errorCode: undefined };
  if (state.capture && input !== undefined) root.span.setAttribute(ATTR.inputMessages, messagesJson('user', input));
  state.turns.set(turnId, turn);
  return turn;
}

/** A turn that failed before turn-start (its store could not be opened) still gets its root span. */
function turnOf(state: ObserverState, event: TurnEvent): TurnTrace {
  return state.turns.get(event.turnId) ?? startTurn(state, event.turnId, event.agent, event.at, undefined);
}

function openAgent(state: ObserverState, agent: string, depth: number, at: number, parent: Context, turnId: string): AgentFrame {
  const attributes: Attributes = { [ATTR.operation]: OPERATION.invokeAgent, [ATTR.agentName]: agent, [ATTR.turnId]: turnId };
  if (state.conversationId !== undefined) attributes[ATTR.conversationId] = state.conversationId;
  const span = state.tracer.startSpan(`${OPERATION.invokeAgent} ${agent}`, { kind: SpanKind.INTERNAL, attributes, startTime: at }, parent);
  return { agent, depth, span, context: trace.setSpan(parent, span), startedAt: at, modelKnown: false, routed: undefined, text: '', reasoning: '' };
}

function openChild(state: ObserverState, turn: TurnTrace, parent: AgentFrame, agent: string, at: number, turnId: string): AgentFrame {
  const frame = openAgent(state, agent, parent.depth + 1, at, parent.context, turnId);
  (turn.open[frame.depth] ??= []).push(frame);
  return frame;
}

/**
 * The innermost open run of `event.agent` at its depth. Only parallel runs of the same agent
 * under the same depth are ambiguous (events carry no run id): the latest one is chosen.
 */
function frameOf(turn: TurnTrace, event: TurnEvent): AgentFrame {
  const level = turn.open[event.depth];
  if (level) {
    for (let i = level.length - 1; i >= 0; i--) if (level[i]!.agent === event.agent) return level[i]!;
  }
  return turn.root;
}

function closeAgent(turn: TurnTrace, frame: AgentFrame, at: number): void {
  const level = turn.open[frame.depth];
  const index = level ? level.indexOf(frame) : -1;
  if (index === -1) return;
  level!.splice(index, 1);
  if (frame.routed) closeAgent(turn, frame.routed, at);
  frame.span.end(at);
}

function fail(span: Span, errorType: string, message: string): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message });
  span.setAttribute(ATTR.errorType, errorType);
}

function startDelegation(state: ObserverState, turn: TurnTrace, event: TurnEventOf<'delegation-start'>): void {
  const child = openChild(state, turn, frameOf(turn, event), event.to, event.at, event.turnId);
  if (state.capture) child.span.setAttribute(ATTR.inputMessages, messagesJson('user', event.request));
  turn.delegations.set(event.callId, child);
}

function endDelegation(state: ObserverState, turn: TurnTrace, event: TurnEventOf<'delegation-end'>): void {
  const child = turn.delegations.get(event.callId);
  if (!child) return;
  turn.delegations.delete(event.callId);
  if (event.isError) fail(child.span, ERROR_TYPE.delegation, event.output);
  else if (state.capture) child.span.setAttribute(ATTR.outputMessages, messagesJson('assistant', event.output, '', 'stop'));
  closeAgent(turn, child, event.at);
}

function startRoute(state: ObserverState, turn: TurnTrace, event: TurnEventOf<'route'>): void {
  const dispatcher = frameOf(turn, event);
  const attributes: Attributes = { 'syndicate.route': event.route, 'syndicate.route.source': event.source };
  if (state.capture) attributes['syndicate.route.reason'] = event.reason;
  dispatcher.span.addEvent('syndicate.route', attributes, event.at);
  if (dispatcher.routed) closeAgent(turn, dispatcher.routed, event.at);
  dispatcher.routed = openChild(state, turn, dispatcher, event.route, event.at, event.turnId);
}

function startTool(state: ObserverState, turn: TurnTrace, event: TurnEventOf<'tool-call'>): void {
  const attributes: Attributes = {
    [ATTR.operation]: OPERATION.executeTool,
    [ATTR.toolName]: event.tool,
    [ATTR.toolCallId]: event.callId,
    [ATTR.toolType]: 'function',
  };
  if (state.capture) attributes[ATTR.toolArguments] = contentString(event.input);
  const parent = frameOf(turn, event).context;
  turn.tools.set(event.callId, state.tracer.startSpan(`${OPERATION.executeTool} ${event.tool}`, { kind: SpanKind.INTERNAL, attributes, startTime: event.at }, parent));
}

function endTool(state: ObserverState, turn: TurnTrace, event: TurnEventOf<'tool-result'>): void {
  const span = turn.tools.get(event.callId);
  if (!span) return;
  turn.tools.delete(event.callId);
  if (event.isError) fail(span, ERROR_TYPE.tool, contentString(event.output));
  if (state.capture) span.setAttribute(ATTR.toolResult, contentString(event.output));
  span.end(event.at);
}

function recordModelCall(state: ObserverState, turn: TurnTrace, event: TurnEventOf<'usage'>): void {
  const frame = frameOf(turn, event);
  const provider = providerName(event.provider);
  if (!frame.modelKnown) {
    frame.modelKnown = true;
    frame.span.setAttributes({ [ATTR.provider]: provider, [ATTR.requestModel]: event.model });
  }
  const ok = event.outcome === 'ok';
  const attributes: Attributes = {
    [ATTR.operation]: OPERATION.chat,
    [ATTR.provider]: provider,
    [ATTR.requestModel]: event.model,
    [ATTR.agentName]: event.agent,
  };
  if (state.conversationId !== undefined) attributes[ATTR.conversationId] = state.conversationId;
  // A failed call reports no usage: zeros would read as a call that cost nothing.
  if (ok) {
    attributes[ATTR.responseModel] = event.responseModel ?? event.model;
    attributes[ATTR.inputTokens] = event.inputTokens;
    attributes[ATTR.outputTokens] = event.outputTokens;
    if (event.reasoningTokens > 0) attributes[ATTR.reasoningTokens] = event.reasoningTokens;
    if (event.cachedInputTokens > 0) attributes[ATTR.cachedInputTokens] = event.cachedInputTokens;
  }
  const finish = event.finishReason === undefined ? undefined : finishReason(event.finishReason);
  if (finish !== undefined) attributes[ATTR.finishReasons] = [finish];
  // Never before the agent's own span: the two clocks (Date.now, performance.now) differ by < 1 ms.
  const startTime = Math.max(frame.startedAt, event.at - event.latencyMs);
  const span = state.tracer.startSpan(`${OPERATION.chat} ${event.model}`, { kind: SpanKind.CLIENT, attributes, startTime }, frame.context);
  if (!ok) {
    const cancelled = event.outcome === 'cancelled';
    fail(span, cancelled ? ERROR_TYPE.cancelled : ERROR_TYPE.other, event.error ?? (cancelled ? 'the model call was cancelled' : 'the model call failed'));
  }
  if (state.capture && (frame.text || frame.reasoning)) {
    span.setAttribute(ATTR.outputMessages, messagesJson('assistant', frame.text, frame.reasoning, finish ?? (ok ? 'stop' : 'error')));
    frame.text = '';
    frame.reasoning = '';
  }
  span.end(event.at);
}

function endTurn(state: ObserverState, turn: TurnTrace, event: TurnEventOf<'turn-end'>): void {
  const failed = event.status !== 'completed';
  const errorType = event.status === 'cancelled' ? ERROR_TYPE.cancelled : (turn.errorCode ?? ERROR_TYPE.other);
  const message = event.error ?? `the turn ${event.status === 'cancelled' ? 'was cancelled' : 'failed'}`;
  for (const span of turn.tools.values()) {
    if (failed) fail(span, errorType, message);
    span.end(event.at);
  }
  // Deepest first, so children end before their parents. What is still open when a turn fails is
  // the chain the error came up through.
  for (let depth = turn.open.length - 1; depth >= 1; depth--) {
    for (const frame of [...(turn.open[depth] ?? [])]) {
      if (failed) fail(frame.span, errorType, message);
      closeAgent(turn, frame, event.at);
    }
  }
  const root = turn.root;
  if (failed) fail(root.span, errorType, message);
  else if (state.capture) root.span.setAttribute(ATTR.outputMessages, messagesJson('assistant', event.output, '', 'stop'));
  root.span.end(event.at);
  state.turns.delete(event.turnId);
}
