import { EventSourceParserStream } from 'eventsource-parser/stream';
import { ApiError, encodeId, request, type StreamedEvent } from './api.js';
import { ResumePoint } from './resumePoint.js';

// A turn's stream (Syndicate's own SSE format) read to the turn's end, through dropped
// connections: on a drop it reconnects to GET /sessions/:id/stream?follow=true with
// Last-Event-ID set to the last seq it saw, and hands on each event once.

const RECONNECTS = 5;
const BACKOFF_MS = 500;

/** Reads one response; true when the turn ended in it (its turn-end came). */
async function readUntilEnd(response: Response, point: ResumePoint, turn: { id?: string }, onEvent: (event: StreamedEvent) => void): Promise<boolean> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
  while (true) {
    const { done, value } = await reader.read();
    if (done) return false;
    const event = JSON.parse(value.data) as StreamedEvent;
    if (!point.accept(event)) continue;
    turn.id ??= event.turnId;
    onEvent(event);
    if (event.type === 'turn-end' && event.turnId === turn.id) return true;
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `first`: the POST /turns response (its X-Session-Id names the session to reconnect to). */
export async function followTurn(first: Response, onEvent: (event: StreamedEvent) => void): Promise<void> {
  const sessionId = first.headers.get('x-session-id');
  const point = new ResumePoint();
  const turn: { id?: string } = {};
  let response: Response | undefined = first;
  let failures = 0;
  while (true) {
    // A resumed stream follows the session (it would go on to later turns): it is closed at this turn's end.
    const closer = new AbortController();
    try {
      response ??= await request('GET', `/sessions/${encodeId(sessionId!)}/stream?follow=true`, undefined, { signal: closer.signal, headers: point.lastSeq === undefined ? {} : { 'last-event-id': String(point.lastSeq) } });
      const seen = point.lastSeq;
      if (await readUntilEnd(response, point, turn, onEvent)) return;
      if (point.lastSeq !== seen) failures = 0;
    } catch (failure) {
      if (failure instanceof ApiError || sessionId === null) throw failure;
      if (++failures > RECONNECTS) throw new Error(`the connection to the server dropped and ${RECONNECTS} reconnections failed (${(failure as Error).message}); the turn may still be running: open the session from Sessions to see it`);
    } finally {
      closer.abort();
    }
    response = undefined;
    point.reconnected();
    await pause(BACKOFF_MS * Math.max(1, failures));
  }
}
