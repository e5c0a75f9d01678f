import { sseMessage } from '../sse.js';
import type { StreamFormat } from './streamFormat.js';
import type { StreamedEvent } from '../liveTurn.js';

// Syndicate's own stream: every TurnEvent as it is, named by its type, with its seq as the SSE id
// (and in the data) when stored, so EventSource's Last-Event-ID resumes after it.

export function ownEventsMessage({ event, seq }: StreamedEvent): string {
  return sseMessage(seq === undefined ? event : { ...event, seq }, { event: event.type, id: seq });
}

export function ownEventsFormat(): StreamFormat {
  return { headers: {}, encode: ownEventsMessage, close: () => '' };
}
