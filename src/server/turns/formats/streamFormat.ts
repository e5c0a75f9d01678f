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
