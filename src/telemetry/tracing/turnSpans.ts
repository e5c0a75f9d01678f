import { SpanKind, TraceFlags, type Attributes, type SpanContext } from '@opentelemetry/api';
import type { TurnEvent, TurnEventOf } from '../../core/events.js';
import { ATTR, contentString, ERROR_TYPE, finishReason, messagesJson, OPERATION, providerName } from '../genAi.js';
import { RecordedSpan, type InstrumentationScope, type SpanResource } from './recordedSpan.js';
import { newSpanId, newTraceId } from './spanIds.js';

// The GenAI spans of one ended turn, built from its events: `invoke_agent` per agent run
// (delegations and dispatch routes nested under their caller), `chat` per model call,
// `execute_tool` per tool call, each timed by its events' own timestamps.

export interface SpanSettings {
  resource: SpanResource;
  scope: InstrumentationScope;
  /** The session the turns belong to, recorded as gen_ai.conversation.id. */
  conversationId: string | undefined;
  /** Record inputs, outputs, tool arguments and results. */
  capture: boolean;
}

interface AgentFrame {
  agent: string;
  depth: number;
  span: RecordedSpan;
  /** Set once the agent's first model call names its provider and model. */
  modelKnown: boolean;
  /** The specialist a dispatcher handed the turn to: no event ends it, so it ends with this frame. */
  routed: AgentFrame | undefined;
  /** Streamed since the agent's last model call; kept only when content is captured. */
  text: string;
  reasoning: string;
}

interface TurnTrace {
  settings: SpanSettings;
  turnId: string;
  traceId: string;
  traceFlags: number;
  /** Open agent frames by depth: one per depth, more when siblings run in parallel. */
  open: AgentFrame[][];
  /** Delegated runs still open, by the delegation's callId (what their events carry as delegationId). */
  delegations: Map<string, AgentFrame>;
  tools: Map<string, RecordedSpan>;
  /** In the order they ended, as the SDK would have handed them over. */
  finished: RecordedSpan[];
  /** The code of the turn's `error` event, for error.type on the spans it ends. */
  errorCode: string | undefined;
}

/**
 * The spans of a turn from its events (turn-end last), children before their parents. Under
 * `parent` (a host application's span) the turn joins that trace and its sampling decision, as
 * the SDK's default parent-based sampler would; else it starts a new, sampled trace.
 */
export function turnSpans(events: readonly TurnEvent[], parent: SpanContext | undefined, settings: SpanSettings): RecordedSpan[] {
  const first = events[0];
  if (first === undefined) return [];
  const turn: TurnTrace = {
    settings,
    turnId: first.turnId,
    traceId: parent ? parent.traceId : newTraceId(),
    traceFlags: parent ? parent.traceFlags & TraceFlags.SAMPLED : TraceFlags.SAMPLED,
    open: [],
    delegations: new Map(),
    tools: new Map(),
    finished: [],
    errorCode: undefined,
  };
  // A turn that failed before turn-start (its store could not be opened) still gets its root span.
  const root = openAgent(turn, first.agent, 0, first.at, parent);
  turn.open.push([root]);
  for (const event of events) record(turn, root, event);
  return turn.finished;
}

function record(turn: TurnTrace, root: AgentFrame, event: TurnEvent): void {
  switch (event.type) {
    case 'turn-start':
      if (turn.settings.capture) root.span.attributes[ATTR.inputMessages] = messagesJson('user', event.input);
      return;
    case 'delegation-start':
      return startDelegation(turn, root, event);
    case 'delegation-end':
      return endDelegation(turn, event);
    case 'route':
      return startRoute(turn, root, event);
    case 'tool-call':
      return startTool(turn, root, event);
    case 'tool-result':
      return endTool(turn, event);
    case 'usage':
      return recordModelCall(turn, root, event);
    case 'text-delta':
      if (turn.settings.capture) frameOf(turn, root, event).text += event.delta;
      return;
    case 'thinking-delta':
      if (turn.settings.capture) frameOf(turn, root, event).reasoning += event.delta;
      return;
    case 'error':
      turn.errorCode = event.code;
      return;
    case 'turn-end':
      return endTurn(turn, root, event);
    default:
      return;
  }
}

function startSpan(turn: TurnTrace, name: string, kind: SpanKind, attributes: Attributes, startMs: number, parent: SpanContext | undefined): RecordedSpan {
  const context: SpanContext = { traceId: turn.traceId, spanId: newSpanId(), traceFlags: turn.traceFlags, isRemote: false };
  return new RecordedSpan({ name, kind, context, parent, attributes, startMs, resource: turn.settings.resource, scope: turn.settings.scope });
}

function endSpan(turn: TurnTrace, span: RecordedSpan, at: number): void {
  span.end(at);
  turn.finished.push(span);
}

function openAgent(turn: TurnTrace, agent: string, depth: number, at: number, parent: SpanContext | undefined): AgentFrame {
  const attributes: Attributes = { [ATTR.operation]: OPERATION.invokeAgent, [ATTR.agentName]: agent, [ATTR.turnId]: turn.turnId };
  if (turn.settings.conversationId !== undefined) attributes[ATTR.conversationId] = turn.settings.conversationId;
  const span = startSpan(turn, `${OPERATION.invokeAgent} ${agent}`, SpanKind.INTERNAL, attributes, at, parent);
  return { agent, depth, span, modelKnown: false, routed: undefined, text: '', reasoning: '' };
}

/** `under`: the span to hang it from when not its parent agent's (a code-mode script's execute_code call). */
function openChild(turn: TurnTrace, parent: AgentFrame, agent: string, at: number, under?: RecordedSpan): AgentFrame {
  const frame = openAgent(turn, agent, parent.depth + 1, at, (under ?? parent.span).spanContext());
  (turn.open[frame.depth] ??= []).push(frame);
  return frame;
}

/**
 * The run of `event.agent` the event came from: found by the event's delegationId (then down
 * the routes its dispatcher took). Events without one are the root run's, or come from a
 * runtime that does not say: the innermost open run of that agent at that depth is chosen.
 */
function frameOf(turn: TurnTrace, root: AgentFrame, event: TurnEvent): AgentFrame {
  if (event.delegationId !== undefined) {
    let frame = turn.delegations.get(event.delegationId);
    while (frame && frame.depth < event.depth) frame = frame.routed;
    if (frame && frame.agent === event.agent) return frame;
  }
  const level = turn.open[event.depth];
  if (level) {
    for (let i = level.length - 1; i >= 0; i--) if (level[i]!.agent === event.agent) return level[i]!;
  }
  return root;
}

function closeAgent(turn: TurnTrace, frame: AgentFrame, at: number): void {
  const level = turn.open[frame.depth];
  const index = level ? level.indexOf(frame) : -1;
  if (index === -1) return;
  level!.splice(index, 1);
  if (frame.routed) closeAgent(turn, frame.routed, at);
  endSpan(turn, frame.span, at);
}

function fail(span: RecordedSpan, errorType: string, message: string): void {
  span.fail(message);
  span.attributes[ATTR.errorType] = errorType;
}

function startDelegation(turn: TurnTrace, root: AgentFrame, event: TurnEventOf<'delegation-start'>): void {
  const child = openChild(turn, frameOf(turn, root, event), event.to, event.at, scriptSpan(turn, event.parentCallId));
  if (turn.settings.capture) child.span.attributes[ATTR.inputMessages] = messagesJson('user', event.request);
  turn.delegations.set(event.callId, child);
}

function endDelegation(turn: TurnTrace, event: TurnEventOf<'delegation-end'>): void {
  const child = turn.delegations.get(event.callId);
  if (!child) return;
  turn.delegations.delete(event.callId);
  if (event.isError) fail(child.span, ERROR_TYPE.delegation, event.output);
  else if (turn.settings.capture) child.span.attributes[ATTR.outputMessages] = messagesJson('assistant', event.output, '', 'stop');
  closeAgent(turn, child, event.at);
}

function startRoute(turn: TurnTrace, root: AgentFrame, event: TurnEventOf<'route'>): void {
  const dispatcher = frameOf(turn, root, event);
  const attributes: Attributes = { 'syndicate.route': event.route, 'syndicate.route.source': event.source };
  if (turn.settings.capture) attributes['syndicate.route.reason'] = event.reason;
  dispatcher.span.addEvent('syndicate.route', attributes, event.at);
  if (dispatcher.routed) closeAgent(turn, dispatcher.routed, event.at);
  dispatcher.routed = openChild(turn, dispatcher, event.route, event.at);
}

/** The execute_code span a code-mode script's call belongs under, while it is open. */
function scriptSpan(turn: TurnTrace, parentCallId: string | undefined): RecordedSpan | undefined {
  return parentCallId === undefined ? undefined : turn.tools.get(parentCallId);
}

function startTool(turn: TurnTrace, root: AgentFrame, event: TurnEventOf<'tool-call'>): void {
  const attributes: Attributes = {
    [ATTR.operation]: OPERATION.executeTool,
    [ATTR.toolName]: event.tool,
    [ATTR.toolCallId]: event.callId,
    [ATTR.toolType]: 'function',
  };
  if (turn.settings.capture) attributes[ATTR.toolArguments] = contentString(event.input);
  const parent = (scriptSpan(turn, event.parentCallId) ?? frameOf(turn, root, event).span).spanContext();
  turn.tools.set(event.callId, startSpan(turn, `${OPERATION.executeTool} ${event.tool}`, SpanKind.INTERNAL, attributes, event.at, parent));
}

function endTool(turn: TurnTrace, event: TurnEventOf<'tool-result'>): void {
  const span = turn.tools.get(event.callId);
  if (!span) return;
  turn.tools.delete(event.callId);
  if (event.isError) fail(span, ERROR_TYPE.tool, contentString(event.output));
  if (turn.settings.capture) span.attributes[ATTR.toolResult] = contentString(event.output);
  endSpan(turn, span, event.at);
}

function recordModelCall(turn: TurnTrace, root: AgentFrame, event: TurnEventOf<'usage'>): void {
  const { capture, conversationId } = turn.settings;
  const frame = frameOf(turn, root, event);
  const provider = providerName(event.provider);
  if (!frame.modelKnown) {
    frame.modelKnown = true;
    frame.span.attributes[ATTR.provider] = provider;
    frame.span.attributes[ATTR.requestModel] = event.model;
  }
  const ok = event.outcome === 'ok';
  const attributes: Attributes = {
    [ATTR.operation]: OPERATION.chat,
    [ATTR.provider]: provider,
    [ATTR.requestModel]: event.model,
    [ATTR.agentName]: event.agent,
  };
  if (conversationId !== undefined) attributes[ATTR.conversationId] = conversationId;
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
  const startMs = Math.max(frame.span.startMs, event.at - event.latencyMs);
  const span = startSpan(turn, `${OPERATION.chat} ${event.model}`, SpanKind.CLIENT, attributes, startMs, frame.span.spanContext());
  if (!ok) {
    const cancelled = event.outcome === 'cancelled';
    fail(span, cancelled ? ERROR_TYPE.cancelled : ERROR_TYPE.other, event.error ?? (cancelled ? 'the model call was cancelled' : 'the model call failed'));
  }
  if (capture && (frame.text || frame.reasoning)) {
    attributes[ATTR.outputMessages] = messagesJson('assistant', frame.text, frame.reasoning, finish ?? (ok ? 'stop' : 'error'));
    frame.text = '';
    frame.reasoning = '';
  }
  endSpan(turn, span, event.at);
}

function endTurn(turn: TurnTrace, root: AgentFrame, event: TurnEventOf<'turn-end'>): void {
  // A turn waiting for the user's answer (input-required) ended as it should: no error.
  const failed = event.status === 'failed' || event.status === 'cancelled';
  const errorType = event.status === 'cancelled' ? ERROR_TYPE.cancelled : (turn.errorCode ?? ERROR_TYPE.other);
  const message = event.error ?? `the turn ${event.status === 'cancelled' ? 'was cancelled' : 'failed'}`;
  for (const span of turn.tools.values()) {
    if (failed) fail(span, errorType, message);
    endSpan(turn, span, event.at);
  }
  // Deepest first, so children end before their parents. What is still open when a turn fails is
  // the chain the error came up through.
  for (let depth = turn.open.length - 1; depth >= 1; depth--) {
    for (const frame of [...(turn.open[depth] ?? [])]) {
      if (failed) fail(frame.span, errorType, message);
      closeAgent(turn, frame, event.at);
    }
  }
  if (failed) fail(root.span, errorType, message);
  else if (turn.settings.capture) root.span.attributes[ATTR.outputMessages] = messagesJson('assistant', event.output, '', 'stop');
  endSpan(turn, root.span, event.at);
}
