import { sseFields } from '../sse.js';
import type { StreamFormat } from './streamFormat.js';
import type { StreamedEvent } from '../liveTurn.js';

// Syndicate's own stream: every TurnEvent as it is, named by its type, with its seq as the SSE id
// (and in the data) when stored, so EventSource's Last-Event-ID resumes after it.

export function ownEventsMessage({ event, seq }: StreamedEvent): string {
  const json = JSON.stringify(event);
  // The text of { ...event, seq } (an event has no seq of its own) without copying the event first.
  return sseFields(seq === undefined ? json : `${json.slice(0, -1)},"seq":${seq}}`, { event: event.type, id: seq });
}

export function ownEventsFormat(): StreamFormat {
  return { headers: {}, encode: ownEventsMessage, close: () => '' };
}
