import { SpanStatusCode, type Attributes, type HrTime, type Link, type SpanContext, type SpanKind, type SpanStatus } from '@opentelemetry/api';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace';

// A span as the SDK's processors and exporters read it, recorded from plain fields. The SDK's
// own Span costs ~7 us to start and end (clock anchoring, attribute validation, context
// objects) and was most of what tracing added to a turn (bench/observability.ts). This is one
// object per span; its times stay epoch milliseconds until an exporter reads them.

export type SpanResource = ReadableSpan['resource'];
export type InstrumentationScope = ReadableSpan['instrumentationScope'];

const UNSET: SpanStatus = Object.freeze({ code: SpanStatusCode.UNSET });
// Shared by every span without events or links: nothing downstream mutates them.
const NO_EVENTS: TimedEvent[] = Object.freeze([]) as unknown as TimedEvent[];
const NO_LINKS: Link[] = Object.freeze([]) as unknown as Link[];
const NANOS_PER_SECOND = 1e9;

/** Epoch milliseconds as [seconds, nanoseconds], rounded as the SDK's millisToHrTime does. */
function hrTimeOf(epochMillis: number): HrTime {
  return [Math.trunc(epochMillis / 1000), Math.round((epochMillis % 1000) * 1e6)];
}

export interface SpanStart {
  name: string;
  kind: SpanKind;
  context: SpanContext;
  parent: SpanContext | undefined;
  attributes: Attributes;
  /** Epoch milliseconds. */
  startMs: number;
  resource: SpanResource;
  scope: InstrumentationScope;
}

// A class, not a literal: one shared prototype for spanContext() and the time getters instead
// of closures per span.
export class RecordedSpan implements ReadableSpan {
  readonly name: string;
  readonly kind: SpanKind;
  readonly parentSpanContext: SpanContext | undefined;
  readonly attributes: Attributes;
  readonly resource: SpanResource;
  readonly instrumentationScope: InstrumentationScope;
  readonly links: Link[] = NO_LINKS;
  readonly droppedAttributesCount = 0;
  readonly droppedEventsCount = 0;
  readonly droppedLinksCount = 0;
  readonly startMs: number;
  endMs: number;
  ended = false;
  status: SpanStatus = UNSET;
  events: TimedEvent[] = NO_EVENTS;
  private readonly context: SpanContext;

  constructor(start: SpanStart) {
    this.name = start.name;
    this.kind = start.kind;
    this.context = start.context;
    this.parentSpanContext = start.parent;
    this.attributes = start.attributes;
    this.startMs = start.startMs;
    this.endMs = start.startMs;
    this.resource = start.resource;
    this.instrumentationScope = start.scope;
  }

  spanContext(): SpanContext {
    return this.context;
  }

  get startTime(): HrTime {
    return hrTimeOf(this.startMs);
  }

  get endTime(): HrTime {
    return hrTimeOf(this.endMs);
  }

  get duration(): HrTime {
    const [startSeconds, startNanos] = this.startTime;
    const [endSeconds, endNanos] = this.endTime;
    const nanos = endNanos - startNanos;
    return nanos < 0 ? [endSeconds - startSeconds - 1, nanos + NANOS_PER_SECOND] : [endSeconds - startSeconds, nanos];
  }

  addEvent(name: string, attributes: Attributes, atMs: number): void {
    const event: TimedEvent = { name, attributes, time: hrTimeOf(atMs), droppedAttributesCount: 0 };
    if (this.events === NO_EVENTS) this.events = [event];
    else this.events.push(event);
  }

  fail(message: string): void {
    this.status = { code: SpanStatusCode.ERROR, message };
  }

  end(atMs: number): void {
    this.endMs = atMs;
    this.ended = true;
  }
}
