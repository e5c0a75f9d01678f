import { context as otelContext, isSpanContextValid, trace, type SpanContext } from '@opentelemetry/api';
import type { SpanProcessor } from '@opentelemetry/sdk-trace';
import type { TurnEvent, TurnEventType, TurnObserver } from '../core/events.js';
import type { InstrumentationScope, SpanResource } from './tracing/recordedSpan.js';
import { turnSpans, type SpanSettings } from './tracing/turnSpans.js';

// Turns the event stream of the turns it observes into GenAI spans (tracing/turnSpans.ts). While
// a turn runs, the observer only keeps the events spans are made of; once it has ended, its
// spans are built on the next turn of the event loop, with those of every other turn that ended
// meanwhile, and handed to the span processor. Building them event by event, with the SDK's own
// spans, added a fifth to a turn's framework overhead (bench/observability.ts).

export interface TracingOptions {
  /** The session the turns belong to, recorded as gen_ai.conversation.id. */
  conversationId?: string;
  /** Record inputs, outputs, tool arguments and results (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT). */
  captureContent?: boolean;
}

export interface TracingObserver {
  /** Give it to runTurn as one of `observers`; it may watch any number of turns. */
  observe: TurnObserver;
  /** Hands the spans of every turn that has ended to the processor now (before a shutdown, in tests). */
  flush(): void;
}

/** Where finished spans go, and what they say produced them. */
export interface SpanSink {
  /** Given every span of a turn once the turn has ended, children before their parents. */
  processor: Pick<SpanProcessor, 'onEnd'>;
  resource: SpanResource;
  scope: InstrumentationScope;
  /** Told when spans built off the turn could not be built or handed over; the turn is never affected. */
  onError(error: unknown): void;
}

interface OpenTurn {
  /** The host application's span that was active when the turn began, if any. */
  parent: SpanContext | undefined;
  events: TurnEvent[];
}

const SPAN_EVENTS: ReadonlySet<TurnEventType> = new Set(['turn-start', 'delegation-start', 'delegation-end', 'route', 'tool-call', 'tool-result', 'usage', 'error', 'turn-end']);
/** Streamed text and thinking are the outputs recorded when content is captured. */
const CONTENT_EVENTS: ReadonlySet<TurnEventType> = new Set([...SPAN_EVENTS, 'text-delta', 'thinking-delta']);

function activeHostSpan(): SpanContext | undefined {
  const span = trace.getSpanContext(otelContext.active());
  return span && isSpanContextValid(span) ? span : undefined;
}

export function createTracingObserver(sink: SpanSink, options: TracingOptions = {}): TracingObserver {
  const capture = options.captureContent === true;
  const settings: SpanSettings = { resource: sink.resource, scope: sink.scope, conversationId: options.conversationId, capture };
  const kept = capture ? CONTENT_EVENTS : SPAN_EVENTS;
  const open = new Map<string, OpenTurn>();
  let ended: OpenTurn[] = [];
  let pending: NodeJS.Immediate | undefined;

  const flush = (): void => {
    clearImmediate(pending);
    pending = undefined;
    const turns = ended;
    ended = [];
    for (const turn of turns) {
      for (const span of turnSpans(turn.events, turn.parent, settings)) sink.processor.onEnd(span);
    }
  };

  const flushLater = (): void => {
    try {
      flush();
    } catch (error) {
      sink.onError(error);
    }
  };

  const observe = (event: TurnEvent): void => {
    if (!kept.has(event.type)) return;
    let turn = open.get(event.turnId);
    if (turn === undefined) {
      turn = { parent: activeHostSpan(), events: [] };
      open.set(event.turnId, turn);
    }
    turn.events.push(event);
    if (event.type !== 'turn-end') return;
    open.delete(event.turnId);
    ended.push(turn);
    pending ??= setImmediate(flushLater);
  };

  return { observe, flush };
}
