import type { Response } from 'express';
import type { Store } from '../../store/store.js';
import type { StreamFormat } from './formats/streamFormat.js';
import type { LiveTurn, StreamedEvent } from './liveTurn.js';
import { openSse } from './sse.js';

// Writes a turn to an SSE response in one format. A client that goes away only unsubscribes: the
// turn runs on (POST /sessions/:id/cancel stops it).

export function streamLiveTurn(res: Response, format: StreamFormat, turn: LiveTurn, afterSeq: number | undefined, headers: Record<string, string> = {}): void {
  const sse = openSse(res, { ...format.headers, ...headers });
  const unsubscribe = turn.subscribe(afterSeq, {
    event: (streamed) => sse.write(format.encode(streamed)),
    end() {
      sse.write(format.close());
      sse.end();
    },
  });
  sse.onClose(unsubscribe);
}

/** The session's last turn from the store, its events after `afterSeq` (all when undefined or older than the turn). */
export async function storedLastTurn(store: Store, sessionId: string, afterSeq: number | undefined): Promise<StreamedEvent[]> {
  const rows = await store.readEvents(sessionId);
  let start = 0;
  for (let i = rows.length - 1; i >= 0; i--) {
    if (rows[i]!.event.type === 'turn-start') {
      start = i;
      break;
    }
  }
  return rows.slice(start).filter((row) => afterSeq === undefined || row.seq > afterSeq).map((row) => ({ event: row.event, seq: row.seq }));
}

export function streamStoredTurn(res: Response, format: StreamFormat, events: readonly StreamedEvent[]): void {
  const sse = openSse(res, format.headers);
  sse.write(events.map((streamed) => format.encode(streamed)).join('') + format.close());
  sse.end();
}
