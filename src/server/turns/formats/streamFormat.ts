import type { TurnEventOf } from '../../../core/events.js';
import type { StreamedEvent } from '../liveTurn.js';

// A wire format for a turn's stream: the SSE text of each event, in order. One instance per stream
// (formats that group events into messages or steps keep that state).

export interface StreamFormat {
  /** Response headers beyond the SSE ones. */
  headers: Readonly<Record<string, string>>;
  /** The SSE messages for one event ('' when the format shows nothing of it). */
  encode(streamed: StreamedEvent): string;
  /** What follows the turn's last event. */
  close(): string;
}

/**
 * The end a format gives a turn whose events stopped without a turn-end (its run broke outside the
 * turn loop), so a client still sees the run end, failed, with what it opened closed.
 */
export function brokenTurnEnd(turnId: string): TurnEventOf<'turn-end'> {
  return { type: 'turn-end', status: 'failed', output: '', error: 'the turn stopped before its end: the server could not run it through', turnId, agent: '', depth: 0, at: 0 };
}
