import type { Response } from 'express';

// Server-sent events on an express response: headers sent at once, a comment line every 15 s so
// proxies and browsers keep an idle stream open, and nothing written once the client has gone.

export const HEARTBEAT_MS = 15_000;

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

export function openSse(res: Response, headers: Readonly<Record<string, string>> = {}): SseWriter {
  res.status(200).set({ ...SSE_HEADERS, ...headers });
  res.flushHeaders();
  let open = true;
  const listeners: Array<() => void> = [];
  const heartbeat = setInterval(() => open && res.write(': keep-alive\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  const close = (): void => {
    if (!open) return;
    open = false;
    clearInterval(heartbeat);
    for (const listener of listeners) listener();
  };
  res.on('close', close);
  return {
    write(text) {
      if (open) res.write(text);
    },
    end() {
      if (!open) return;
      close();
      res.end();
    },
    onClose: (listener) => void listeners.push(listener),
  };
}

/** One SSE message; `data` is JSON, on one line. */
export function sseMessage(data: unknown, fields: { event?: string; id?: number } = {}): string {
  return `${fields.event === undefined ? '' : `event: ${fields.event}\n`}${fields.id === undefined ? '' : `id: ${fields.id}\n`}data: ${JSON.stringify(data)}\n\n`;
}
