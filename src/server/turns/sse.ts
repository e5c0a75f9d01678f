import type { Response } from 'express';

// Server-sent events on an express response: headers sent with the first message (or on their own
// within HEADERS_WAIT_MS), a comment line every 15 s so proxies and browsers keep an idle stream
// open, and nothing written once the client has gone.

export const HEARTBEAT_MS = 15_000;

// A turn's first events are ready within the turn of the event loop that read its request, as a
// rule: held this long, the headers go out in the same write as those events rather than in a
// write (and a client read) of their own. A stream with nothing to send yet (a queued turn, an
// idle follow) gets its headers after this long; no message ever waits for them.
const HEADERS_WAIT_MS = 1;

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  // Proxies such as nginx would otherwise buffer the stream.
  'x-accel-buffering': 'no',
};

export interface SseWriter {
  /** Writes one or more complete SSE messages (each ends with a blank line). */
  write(text: string): void;
  end(): void;
  /** Called once when the client goes away or the stream ends. */
  onClose(listener: () => void): void;
}

// One heartbeat for every open stream: a timer per stream, made and cleared with each turn's
// response, was a visible share of a short streamed turn. A stream's first comment comes within
// HEARTBEAT_MS of its opening rather than exactly then.
const beating = new Set<() => void>();
let heartbeat: NodeJS.Timeout | undefined;

function startBeating(beat: () => void): void {
  beating.add(beat);
  if (heartbeat !== undefined) return;
  heartbeat = setInterval(() => {
    for (const each of beating) each();
  }, HEARTBEAT_MS);
  heartbeat.unref();
}

function stopBeating(beat: () => void): void {
  beating.delete(beat);
  if (beating.size > 0 || heartbeat === undefined) return;
  clearInterval(heartbeat);
  heartbeat = undefined;
}

export function openSse(res: Response, headers: Readonly<Record<string, string>> = {}): SseWriter {
  // Node's own setHeader: express's res.set looks the content type up again for a charset it already names.
  res.statusCode = 200;
  for (const name in SSE_HEADERS) res.setHeader(name, SSE_HEADERS[name]!);
  for (const name in headers) res.setHeader(name, headers[name]!);
  const headersDue = setTimeout(() => res.flushHeaders(), HEADERS_WAIT_MS);
  let open = true;
  // Messages written in this tick, sent as one chunk once it ends: a turn releases its events in
  // bursts (a model step's deltas, a commit's held events), and each res.write of a chunked
  // response costs its own chunk framing and buffers, the largest share of a short turn's writes.
  // Nothing waits past the tick that wrote it.
  let pending = '';
  const send = (): void => {
    const text = pending;
    pending = '';
    if (open && text !== '') res.write(text);
  };
  const listeners: Array<() => void> = [];
  const beat = (): void => void (open && res.write(': keep-alive\n\n'));
  startBeating(beat);
  const close = (): void => {
    if (!open) return;
    open = false;
    clearTimeout(headersDue);
    stopBeating(beat);
    for (const listener of listeners) listener();
  };
  res.on('close', close);
  return {
    write(text) {
      if (!open || text === '') return;
      // The headers go with this tick's messages.
      clearTimeout(headersDue);
      if (pending === '') process.nextTick(send);
      pending += text;
    },
    end() {
      if (!open) return;
      const text = pending;
      pending = '';
      close();
      res.end(text);
    },
    onClose: (listener) => void listeners.push(listener),
  };
}

/** One SSE message; `data` is JSON, on one line. */
export function sseMessage(data: unknown, fields: { event?: string; id?: number } = {}): string {
  return sseFields(JSON.stringify(data), fields);
}

/** One SSE message whose data is already JSON text, on one line. */
export function sseFields(json: string, fields: { event?: string; id?: number }): string {
  return `${fields.event === undefined ? '' : `event: ${fields.event}\n`}${fields.id === undefined ? '' : `id: ${fields.id}\n`}data: ${json}\n\n`;
}
