import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A loopback OTLP/HTTP trace receiver: accepts POST /v1/traces with the JSON encoding (what
// @opentelemetry/exporter-trace-otlp-http sends) and keeps every span it is given.

type AnyValue = { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean; arrayValue?: { values?: AnyValue[] } };

interface KeyValue {
  key: string;
  value: AnyValue;
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: KeyValue[];
  status?: { code?: number; message?: string };
}

interface ExportRequest {
  resourceSpans?: Array<{ resource?: { attributes?: KeyValue[] }; scopeSpans?: Array<{ spans?: OtlpSpan[] }> }>;
}

export type Attribute = string | number | boolean | Attribute[] | undefined;

/** A span as received, attributes decoded to plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  /** OTLP SpanKind: 1 internal, 3 client. */
  kind: number;
  attributes: Record<string, Attribute>;
  /** OTLP StatusCode: 0 unset, 2 error. */
  status: { code: number; message: string | undefined };
  resource: Record<string, Attribute>;
}

export interface OtlpReceiver {
  /** Base endpoint, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  endpoint: string;
  spans: ReceivedSpan[];
  requests: Array<{ method: string | undefined; path: string | undefined; contentType: string | undefined }>;
  close(): Promise<void>;
}

export const OTLP_KIND = { internal: 1, client: 3 } as const;
export const OTLP_STATUS = { unset: 0, error: 2 } as const;

function decode(value: AnyValue): Attribute {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(decode);
  return undefined;
}

function decodeAll(attributes: KeyValue[] | undefined): Record<string, Attribute> {
  return Object.fromEntries((attributes ?? []).map((kv) => [kv.key, decode(kv.value)]));
}

function spansOf(request: ExportRequest): ReceivedSpan[] {
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = decodeAll(resourceSpans.resource?.attributes);
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId || undefined,
        name: span.name,
        kind: span.kind,
        attributes: decodeAll(span.attributes),
        status: { code: span.status?.code ?? 0, message: span.status?.message },
        resource,
      })),
    );
  });
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const requests: OtlpReceiver['requests'] = [];
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    requests.push({ method: request.method, path: request.url, contentType: request.headers['content-type'] });
    const body = await bodyOf(request);
    if (request.method !== 'POST' || request.url !== '/v1/traces' || !String(request.headers['content-type']).startsWith('application/json')) {
      response.writeHead(404).end();
      return;
    }
    spans.push(...spansOf(JSON.parse(body) as ExportRequest));
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  };
  const server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The tree of received spans, linked by spanId/parentSpanId. */
export function receivedNodes(spans: readonly ReceivedSpan[]): Array<{ name: string; spanId: string; parentSpanId: string | undefined }> {
  return spans.map(({ name, spanId, parentSpanId }) => ({ name, spanId, parentSpanId }));
}
