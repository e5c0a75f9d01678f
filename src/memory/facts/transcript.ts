import type { StoredEvent } from '../../store/store.js';

// The part of a session's events an extraction reads: whole turns only. A turn still running
// (no turn-end yet) is left for the next ingestion, so the high-water mark never splits a turn.

export interface TranscriptLine {
  /** 'user' or the agent's name. */
  speaker: string;
  text: string;
}

export interface TranscriptTurn {
  turnId: string;
  /** When the turn started, in milliseconds since the epoch. */
  at: number;
  lines: TranscriptLine[];
  /** The seq of the turn's last event. */
  lastSeq: number;
}

export interface CompleteTurns {
  turns: TranscriptTurn[];
  /** The seq of the last event of the last complete turn; undefined when no turn is complete. */
  throughSeq: number | undefined;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The turns completed in `events` (a session's events in seq order), with what the user and the root agent said. */
export function completeTurns(events: readonly StoredEvent[]): CompleteTurns {
  let lastEnd = -1;
  events.forEach(({ event }, index) => {
    if (event.type === 'turn-end' && event.depth === 0) lastEnd = index;
  });
  if (lastEnd < 0) return { turns: [], throughSeq: undefined };
  const turns = new Map<string, TranscriptTurn>();
  for (const { event, seq } of events.slice(0, lastEnd + 1)) {
    const turn = turns.get(event.turnId) ?? turns.set(event.turnId, { turnId: event.turnId, at: event.at, lines: [], lastSeq: seq }).get(event.turnId)!;
    turn.lastSeq = seq;
    if (event.type === 'turn-start') {
      turn.at = event.at;
      turn.lines.push({ speaker: 'user', text: event.input });
    } else if (event.type === 'message' && event.depth === 0 && event.text.trim() !== '') {
      // Subagents' messages are consultations; what the user was told is the root agent's answer.
      turn.lines.push({ speaker: event.agent, text: event.text });
    }
  }
  return { turns: [...turns.values()].filter((turn) => turn.lines.length > 0), throughSeq: events[lastEnd]!.seq };
}

/** The turn's day in UTC, e.g. '2026-03-01 (Sunday)'. */
export function turnDate(at: number): string {
  const date = new Date(at);
  return `${date.toISOString().slice(0, 10)} (${WEEKDAYS[date.getUTCDay()]})`;
}

/**
 * Consecutive runs of turns whose transcript stays under `maxChars` (a turn longer than that goes
 * alone), so one extraction call never receives a whole long session.
 */
export function chunkTurns(turns: readonly TranscriptTurn[], maxChars: number): TranscriptTurn[][] {
  const chunks: TranscriptTurn[][] = [];
  let chars = 0;
  for (const turn of turns) {
    const size = renderTranscript([turn]).length;
    const last = chunks[chunks.length - 1];
    if (last !== undefined && chars + size <= maxChars) {
      last.push(turn);
      chars += size;
    } else {
      chunks.push([turn]);
      chars = size;
    }
  }
  return chunks;
}

export function renderTranscript(turns: readonly TranscriptTurn[]): string {
  return turns
    .map((turn) => [`### Turn ${turn.turnId}, ${turnDate(turn.at)}`, ...turn.lines.map((line) => `${line.speaker}: ${line.text}`)].join('\n'))
    .join('\n\n');
}
