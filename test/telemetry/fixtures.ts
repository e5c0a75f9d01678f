import type { AttributeValue } from '@opentelemetry/api';
import { emptyResource } from '@opentelemetry/resources';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace';
import type { AgentDefinition } from '../../src/config/definition.js';
import { createTracingObserver, type TracingOptions } from '../../src/telemetry/tracingObserver.js';
import type { TurnObserver } from '../../src/core/events.js';
import { agent } from '../runtime/fixtures.js';

export const COUNCIL_INPUT = 'Proposal: a team offsite for 12 people on a 4,800 budget.';
export const SKEPTIC_ANSWER = 'At 400 each, it is too tight.';

/** Moderator consults Advocate and Skeptic; Skeptic checks the numbers with the calculator. */
export function council(): AgentDefinition {
  return agent('Moderator', {
    subagents: [
      agent('Advocate'),
      agent('Skeptic', {
        tools: ['calculator'],
        script: [{ tool_calls: [{ tool: 'calculator', args: { expression: '4800 / 12' } }] }, { match: 'result', reply: SKEPTIC_ANSWER }],
      }),
    ],
  });
}

export interface MemoryTracing {
  observer: TurnObserver;
  /** The spans of every turn that has ended, built now if the event loop has not got to them yet. */
  spans(): ReadableSpan[];
}

export function memoryTracing(options?: TracingOptions): MemoryTracing {
  const exporter = new InMemorySpanExporter();
  const processor = new SimpleSpanProcessor({ exporter });
  const errors: unknown[] = [];
  const tracing = createTracingObserver({ processor, resource: emptyResource(), scope: { name: 'test' }, onError: (error) => errors.push(error) }, options);
  return {
    observer: tracing.observe,
    spans() {
      tracing.flush();
      if (errors.length > 0) throw errors[0];
      return exporter.getFinishedSpans();
    },
  };
}

export function spanNamed(spans: readonly ReadableSpan[], name: string, nth = 0): ReadableSpan {
  const span = spans.filter((s) => s.name === name)[nth];
  if (!span) throw new Error(`no span #${nth} named '${name}' among ${spans.map((s) => s.name).join(', ')}`);
  return span;
}

export function nodesOf(spans: readonly ReadableSpan[]): Array<{ name: string; spanId: string; parentSpanId: string | undefined }> {
  return spans.map((span) => ({ name: span.name, spanId: span.spanContext().spanId, parentSpanId: span.parentSpanContext?.spanId }));
}

export function attributesOf(span: ReadableSpan): Record<string, AttributeValue | undefined> {
  return { ...span.attributes };
}
