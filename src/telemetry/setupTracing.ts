import type { SpanExporter } from '@opentelemetry/sdk-trace';
import { errorMessage } from '../core/errors.js';
import type { TurnObserver } from '../core/events.js';

// Tracing is off unless an OTLP endpoint is configured, and then costs nothing: no OpenTelemetry
// module is imported until setupTracing finds an endpoint (together they take ~130 ms to load,
// a third of the CLI's cold start).

export interface Tracing {
  /** An observer whose turns become spans exported to the endpoint, as turns of the session `conversationId` (gen_ai.conversation.id). */
  observer(conversationId?: string): TurnObserver;
  /** Exports the spans of every turn that has ended, then stops. Await it before the process exits. Never rejects. */
  shutdown(): Promise<void>;
}

export interface TracingSetupOptions {
  /** Told about a bad endpoint, and once when spans cannot be exported; stderr by default. */
  warn?: (message: string) => void;
  /** How long shutdown waits for the last export (default 3000 ms). */
  shutdownTimeoutMs?: number;
}

// The exporter retries an unreachable collector for up to 10 s; a CLI must not hang that long on exit.
const SHUTDOWN_TIMEOUT_MS = 3000;

const TRAILING_SLASHES = /\/+$/;

/** Where spans go: the traces endpoint as given, or the base endpoint with /v1/traces appended (OTLP/HTTP rules). */
export function tracesEndpoint(env: NodeJS.ProcessEnv): string | undefined {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return base ? `${base.replace(TRAILING_SLASHES, '')}/v1/traces` : undefined;
}

function isTrue(value: string | undefined): boolean {
  return value?.trim().toLowerCase() === 'true';
}

function tracingDisabled(env: NodeJS.ProcessEnv): boolean {
  return isTrue(env.OTEL_SDK_DISABLED) || env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none';
}

function capturesContent(env: NodeJS.ProcessEnv): boolean {
  return isTrue(env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT);
}

/** One warning per process is enough: a collector that is down fails every export the same way. */
function once(warn: (message: string) => void): (message: string) => void {
  let warned = false;
  return (message) => {
    if (warned) return;
    warned = true;
    warn(message);
  };
}

/** The SDK reports failed exports only to its diagnostics logger, which is silent unless set up. */
function warningOnFailure(exporter: SpanExporter, url: string, warn: (message: string) => void): SpanExporter {
  return {
    export(spans, done) {
      exporter.export(spans, (result) => {
        // ExportResultCode.SUCCESS is 0; @opentelemetry/core is not imported for one constant.
        if (result.code !== 0) warn(`warning: traces could not be exported to ${url}: ${result.error?.message ?? 'the export failed'}`);
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}

/** Resolves when `work` settles or after `ms`, whichever is first; tells which. */
function within(work: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  return Promise.race([work.then(() => true), timeout]).finally(() => clearTimeout(timer));
}

function isUrl(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Tracing exported over OTLP/HTTP (JSON) in batches, or undefined when no endpoint is configured,
 * tracing is disabled (OTEL_SDK_DISABLED, OTEL_TRACES_EXPORTER=none) or the endpoint is not a URL.
 */
export async function setupTracing(env: NodeJS.ProcessEnv, options: TracingSetupOptions = {}): Promise<Tracing | undefined> {
  const url = tracesEndpoint(env);
  if (url === undefined || tracingDisabled(env)) return undefined;
  const warn = options.warn ?? ((message: string) => void process.stderr.write(`${message}\n`));
  if (!isUrl(url)) {
    warn(`warning: tracing is off: the OTLP endpoint '${url}' is not a URL (set OTEL_EXPORTER_OTLP_ENDPOINT to e.g. http://localhost:4318)`);
    return undefined;
  }
  const [{ BatchSpanProcessor }, { OTLPTraceExporter }, { defaultResource, resourceFromAttributes }, { createTracingObserver }] = await Promise.all([
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('./tracingObserver.js'),
  ]);
  const warnOnce = once(warn);
  const exporter = warningOnFailure(new OTLPTraceExporter({ url }), url, warnOnce);
  // No TracerProvider: the observer records its own spans (far cheaper than the SDK's) and hands
  // them to the batch processor, which exports them as the SDK would.
  const processor = new BatchSpanProcessor({ exporter });
  const sink = {
    processor,
    resource: defaultResource().merge(resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME?.trim() || 'syndicate' })),
    scope: { name: 'syndicate' },
    onError: (error: unknown) => warnOnce(`warning: traces could not be recorded: ${errorMessage(error)}`),
  };
  const captureContent = capturesContent(env);
  const limit = options.shutdownTimeoutMs ?? SHUTDOWN_TIMEOUT_MS;
  const failed = (why: string): void => warnOnce(`warning: traces could not be exported to ${url}: ${why}`);
  return {
    observer: (conversationId) => createTracingObserver(sink, { conversationId, captureContent }).observe,
    async shutdown() {
      // Observers hand an ended turn's spans over on the next turn of the event loop: after this one.
      await new Promise((resolve) => setImmediate(resolve));
      const done = processor.shutdown().catch((error: unknown) => failed(errorMessage(error)));
      if (!(await within(done, limit))) failed(`no answer within ${limit} ms`);
    },
  };
}
