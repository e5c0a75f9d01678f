import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { openSse, sseMessage, type SseWriter } from '../../../src/server/turns/sse.js';

// openSse on a real express server over loopback.

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** Serves GET / with openSse handed to `handle`; records every chunk the response gives its socket. */
async function serve(handle: (sse: SseWriter) => void): Promise<{ url: string; written: string[] }> {
  const written: string[] = [];
  const app = express();
  app.get('/', (_req, res) => {
    const socket = res.socket!;
    const write = socket.write.bind(socket) as (chunk: unknown, ...rest: unknown[]) => boolean;
    socket.write = ((chunk: unknown, ...rest: unknown[]) => {
      written.push(String(chunk));
      return write(chunk, ...rest);
    }) as typeof socket.write;
    handle(openSse(res));
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, written };
}

describe('an SSE stream', () => {
  it('sends its headers in the same write as a first message that is ready at once', async () => {
    const { url, written } = await serve((sse) => {
      setImmediate(() => {
        sse.write(sseMessage({ n: 1 }, { event: 'first' }));
        sse.end();
      });
    });

    const body = await (await fetch(url)).text();

    expect(body).toBe('event: first\ndata: {"n":1}\n\n');
    expect(written[0]).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(written[0]!.endsWith('\r\n\r\n')).toBe(false);
  });

  it('sends the messages written in one tick as one chunk of the response', async () => {
    const { url, written } = await serve((sse) => {
      sse.write(sseMessage({ n: 1 }, { event: 'a' }));
      sse.write(sseMessage({ n: 2 }, { event: 'b' }));
      setImmediate(() => sse.end());
    });

    const body = await (await fetch(url)).text();

    expect(body).toBe('event: a\ndata: {"n":1}\n\nevent: b\ndata: {"n":2}\n\n');
    expect(written.filter((chunk) => chunk.includes('event: '))).toStrictEqual([expect.stringContaining('event: a\ndata: {"n":1}\n\nevent: b\n')]);
  });

  it('sends its headers on their own when it has nothing to send yet, so the client sees the stream open', async () => {
    const { url } = await serve(() => undefined);

    const response = await fetch(url);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    await response.body!.cancel();
  });
});
