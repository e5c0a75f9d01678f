import type { Response } from 'express';
import type { Store } from '../../store/store.js';
import type { StreamFormat } from './formats/streamFormat.js';
import type { LiveTurn, StreamedEvent } from './liveTurn.js';
import type { SessionHub } from './sessionHub.js';
import { openSse } from './sse.js';
import { storedLastTurn } from './streamTurn.js';

// A session's stream that stays open between turns: what a UI watching a conversation needs, so
// a turn it did not start (a second tab's, a background job's report, a scheduled run) shows up
// live. It starts as a turn's stream does (the running turn, else the last stored one, or what is
// stored after Last-Event-ID), then streams every turn the session runs, in order, until the client
// goes away. Idle, it costs the open connection and the SSE heartbeat.

/** Stored events after `afterSeq` in every turn since (Last-Event-ID), else the last turn's. */
async function storedSince(store: Store, sessionId: string, afterSeq: number | undefined): Promise<StreamedEvent[]> {
  if (afterSeq === undefined) return storedLastTurn(store, sessionId, undefined);
  return (await store.readEvents(sessionId, { afterSeq })).map((row) => ({ event: row.event, seq: row.seq }));
}

export async function followSession(res: Response, format: StreamFormat, hub: SessionHub, store: Store, sessionId: string, afterSeq: number | undefined): Promise<void> {
  const sse = openSse(res, format.headers);
  // Watched before the store is read: a turn admitted meanwhile is queued, not missed. Its stored
  // events may then come twice (read and replayed): nothing at or below the last seq sent goes out again.
  const queued: LiveTurn[] = [];
  let following: LiveTurn | undefined;
  let lastSeq = afterSeq ?? 0;
  let unsubscribe: (() => void) | undefined;
  const send = (streamed: StreamedEvent): void => {
    if (streamed.seq !== undefined) {
      if (streamed.seq <= lastSeq) return;
      lastSeq = streamed.seq;
    }
    sse.write(format.encode(streamed));
  };
  const followNext = (): void => {
    if (following !== undefined) return;
    following = queued.shift();
    if (following === undefined) return;
    unsubscribe = following.subscribe(lastSeq, {
      event: send,
      end() {
        following = undefined;
        followNext();
      },
    });
  };
  const unwatch = hub.watch(sessionId, (turn) => {
    queued.push(turn);
    followNext();
  });
  sse.onClose(() => {
    unwatch();
    unsubscribe?.();
  });
  // Nothing awaited since the watch began: the running turn cannot be among the queued ones.
  const running = hub.current(sessionId);
  if (running !== undefined) queued.unshift(running);
  if (running === undefined || afterSeq !== undefined) for (const streamed of await storedSince(store, sessionId, afterSeq)) send(streamed);
  followNext();
}
