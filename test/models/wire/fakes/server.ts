import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A loopback HTTP server that plays one provider's API: each family module renders scripted
// answers in that provider's wire format (JSON, SSE or NDJSON), and this serves them in
// order, recording every request it received. Nothing here knows a provider.

export interface ToolCallScript {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

export interface UsageScript {
  input: number;
  /** All output tokens, thinking included. */
  output: number;
  /** The part of `output` spent thinking. */
  reasoning?: number;
}

/** One model response, whatever the wire: the fake renders it whole or as a stream, as the request asks. */
export interface AnswerScript {
  /** Reasoning, one stream event per piece. */
  thinking?: readonly string[];
  /** Answer text, one stream event per piece. */
  text?: readonly string[];
  toolCalls?: readonly ToolCallScript[];
  usage?: UsageScript;
}

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read provider bodies freely
  body: any;
  /** The client gave up before the reply was complete. */
  abandoned: boolean;
}

export interface StreamBody {
  contentType: string;
  /** Written one at a time, in order: SSE frames or NDJSON lines. */
  chunks: readonly string[];
}

/** How one provider family speaks. */
export interface WireFormat {
  name: string;
  /** Whether this request asked for a stream (by path or by a body flag). */
  wantsStream(request: RecordedRequest): boolean;
  json(answer: AnswerScript, request: RecordedRequest): unknown;
  stream(answer: AnswerScript, request: RecordedRequest): StreamBody;
  /** The JSON body this provider sends with an HTTP error. */
  errorBody(status: number, message: string): unknown;
}

type Reply =
  | { kind: 'answer'; answer: AnswerScript }
  | { kind: 'error'; status: number; message: string; headers: Record<string, string> }
  | { kind: 'hang' };

export interface FakeProvider {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly url: string;
  readonly requests: readonly RecordedRequest[];
  /** Queues a successful response. */
  answer(answer: AnswerScript): FakeProvider;
  /** Queues an HTTP error in the provider's error format. */
  fail(status: number, message: string, headers?: Record<string, string>): FakeProvider;
  /** Queues a request that is accepted and never answered. */
  hang(): FakeProvider;
  /** Resolves once every request so far is answered or given up by the client. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

async function sendStream(response: ServerResponse, body: StreamBody): Promise<void> {
  response.writeHead(200, { 'content-type': body.contentType, 'cache-control': 'no-cache' });
  for (const chunk of body.chunks) {
    response.write(chunk);
    // A turn of the event loop between chunks, so the client reads them as they come rather than as one buffer.
    await new Promise((resolve) => setImmediate(resolve));
  }
  response.end();
}

export async function startFake(format: WireFormat): Promise<FakeProvider> {
  const queue: Reply[] = [];
  const requests: RecordedRequest[] = [];
  const closed: Array<Promise<void>> = [];

  const server = createServer((request, response) => {
    const recorded: RecordedRequest = { method: request.method ?? '', path: request.url ?? '', headers: request.headers, body: undefined, abandoned: false };
    requests.push(recorded);
    closed.push(
      new Promise((resolve) =>
        response.on('close', () => {
          recorded.abandoned = !response.writableFinished;
          resolve();
        }),
      ),
    );
    void (async () => {
      const raw = await readBody(request);
      recorded.body = raw === '' ? undefined : JSON.parse(raw);
      const reply = queue.shift();
      if (!reply) {
        sendJson(response, 500, format.errorBody(500, `fake ${format.name}: no reply scripted for ${recorded.method} ${recorded.path}`));
      } else if (reply.kind === 'error') {
        sendJson(response, reply.status, format.errorBody(reply.status, reply.message), reply.headers);
      } else if (reply.kind === 'answer') {
        if (format.wantsStream(recorded)) await sendStream(response, format.stream(reply.answer, recorded));
        else sendJson(response, 200, format.json(reply.answer, recorded));
      }
      // A 'hang' reply sends nothing: the request stays open until the client gives up or close() runs.
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const fake: FakeProvider = {
    url: `http://127.0.0.1:${port}`,
    requests,
    answer(answer) {
      queue.push({ kind: 'answer', answer });
      return fake;
    },
    fail(status, message, headers = {}) {
      queue.push({ kind: 'error', status, message, headers });
      return fake;
    },
    hang() {
      queue.push({ kind: 'hang' });
      return fake;
    },
    async settled() {
      await Promise.all(closed);
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
  return fake;
}

/** One server-sent event; `event` is omitted by APIs that put the type inside the data. */
export function sseFrame(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

export const SSE = 'text/event-stream';
