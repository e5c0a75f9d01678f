import { describe, expect, it } from 'vitest';
import { chunkTurns, completeTurns, renderTranscript } from '../../../src/memory/facts/transcript.js';
import type { TurnEvent } from '../../../src/core/events.js';
import type { StoredEvent } from '../../../src/store/store.js';

const AT = Date.UTC(2026, 2, 1, 9, 30);

function stored(events: readonly TurnEvent[]): StoredEvent[] {
  return events.map((event, index) => ({ seq: index + 1, sessionId: 's', event }));
}

function turn(turnId: string, input: string, answer: string, at = AT): TurnEvent[] {
  const envelope = { turnId, agent: 'Assistant', at, depth: 0 };
  return [
    { ...envelope, type: 'turn-start', syndicate: 'x', input },
    { ...envelope, type: 'thinking', text: 'private' },
    { ...envelope, agent: 'Helper', depth: 1, type: 'message', text: 'a consultation' },
    { ...envelope, type: 'message', text: answer },
    { ...envelope, type: 'turn-end', status: 'completed', output: answer },
  ];
}

describe('complete turns of a session', () => {
  it('keeps what the user and the root agent said, by turn, up to the last turn-end', () => {
    const { turns, throughSeq } = completeTurns(stored([...turn('t1', 'I live in Paris.', 'Noted.'), ...turn('t2', 'Hello', 'Hi')]));
    expect(turns).toEqual([
      { turnId: 't1', at: AT, lines: [{ speaker: 'user', text: 'I live in Paris.' }, { speaker: 'Assistant', text: 'Noted.' }], lastSeq: 5 },
      { turnId: 't2', at: AT, lines: [{ speaker: 'user', text: 'Hello' }, { speaker: 'Assistant', text: 'Hi' }], lastSeq: 10 },
    ]);
    expect(throughSeq).toBe(10);
  });

  it('leaves a turn without its turn-end for the next ingestion', () => {
    const events = stored([...turn('t1', 'one', 'a'), ...turn('t2', 'two', 'b').slice(0, 3)]);
    const { turns, throughSeq } = completeTurns(events);
    expect(turns.map((t) => t.turnId)).toEqual(['t1']);
    expect(throughSeq).toBe(5);
  });

  it('reports no mark when no turn is complete', () => {
    expect(completeTurns(stored(turn('t1', 'one', 'a').slice(0, 2)))).toEqual({ turns: [], throughSeq: undefined });
  });

  it('labels each turn with its id and its UTC date and weekday', () => {
    const { turns } = completeTurns(stored(turn('t1', 'See you tomorrow.', 'Bye.')));
    expect(renderTranscript(turns)).toBe('### Turn t1, 2026-03-01 (Sunday)\nuser: See you tomorrow.\nAssistant: Bye.');
  });

  it('groups consecutive turns into chunks under a size, a longer turn going alone', () => {
    const { turns } = completeTurns(stored([...turn('t1', 'a', 'b'), ...turn('t2', 'x'.repeat(200), 'y'), ...turn('t3', 'c', 'd'), ...turn('t4', 'e', 'f')]));
    const small = renderTranscript([turns[0]!]).length;
    expect(chunkTurns(turns, small * 2 + 10).map((chunk) => chunk.map((t) => t.turnId))).toEqual([['t1'], ['t2'], ['t3', 't4']]);
  });
});
