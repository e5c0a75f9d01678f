import { foldTurns, type TreeOptions, type TurnTree } from '../tree/delegationTree.js';
import { encodeId, getJson, type StreamedEvent } from './api.js';

// A stored session as the studio shows it: all its events (GET /sessions/:id/events, a page at a
// time) folded into one delegation tree per turn, the same trees a live turn grows.

/** The server's largest page. */
const PAGE_SIZE = 10_000;

interface StoredEvent {
  seq: number;
  event: StreamedEvent;
}

export interface Transcript {
  turns: TurnTree[];
  /** The seq of each turn's last event: where a fork at that turn ends. */
  lastSeqs: number[];
}

/** Every stored event of the session, in order: pages are read until one comes back short. */
async function readAllEvents(sessionId: string): Promise<StoredEvent[]> {
  const events: StoredEvent[] = [];
  while (true) {
    const after = events.at(-1)?.seq ?? 0;
    const page = await getJson<{ events: StoredEvent[] }>(`/sessions/${encodeId(sessionId)}/events?after=${after}&limit=${PAGE_SIZE}`);
    events.push(...page.events);
    if (page.events.length < PAGE_SIZE) return events;
  }
}

export async function loadTranscript(sessionId: string, options: TreeOptions): Promise<Transcript> {
  const events = await readAllEvents(sessionId);
  const turns = foldTurns(
    events.map((stored) => stored.event),
    options,
  );
  const lastSeq = new Map(events.map((stored) => [stored.event.turnId, stored.seq]));
  return { turns, lastSeqs: turns.map((turn) => lastSeq.get(turn.turnId) ?? 0) };
}
