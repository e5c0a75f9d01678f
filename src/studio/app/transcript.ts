import { foldTurns, type TreeOptions, type TurnTree } from '../tree/delegationTree.js';
import { encodeId, getJson, type StreamedEvent } from './api.js';

// A stored session as the studio shows it: its events (GET /sessions/:id/events) folded into one
// delegation tree per turn, the same trees a live turn grows.

const MAX_EVENTS = 10_000;

export interface Transcript {
  turns: TurnTree[];
  /** The seq of each turn's last event: where a fork at that turn ends. */
  lastSeqs: number[];
}

export async function loadTranscript(sessionId: string, options: TreeOptions): Promise<Transcript> {
  const { events } = await getJson<{ events: Array<{ seq: number; event: StreamedEvent }> }>(`/sessions/${encodeId(sessionId)}/events?limit=${MAX_EVENTS}`);
  const turns = foldTurns(
    events.map((stored) => stored.event),
    options,
  );
  const lastSeq = new Map(events.map((stored) => [stored.event.turnId, stored.seq]));
  return { turns, lastSeqs: turns.map((turn) => lastSeq.get(turn.turnId) ?? 0) };
}
