import { describe, expect, it } from 'vitest';
import { projectTranscript, type TurnRecord } from '../../src/runtime/projectTranscript.js';

function turn(i: number, entries: TurnRecord['entries']): TurnRecord {
  return { turnId: `t${i}`, input: `question ${i}`, entries };
}

describe('projectTranscript', () => {
  it('shows an agent its own replies as its own and labels other agents', () => {
    const history = [turn(1, [{ agent: 'Advocate', text: 'for' }, { agent: 'Moderator', text: 'verdict' }])];

    expect(projectTranscript(history, 'Moderator')).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'question 1\n\n[Advocate]: for' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'verdict' }] },
    ]);
  });

  it('keeps at most 16 turns, newest first', () => {
    const history = Array.from({ length: 20 }, (_, i) => turn(i, [{ agent: 'A', text: `answer ${i}` }]));

    const messages = projectTranscript(history, 'A');

    expect(messages).toHaveLength(32);
    expect(messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'question 4' }] });
  });

  it('drops the oldest turns once 40,000 characters are reached', () => {
    const history = Array.from({ length: 5 }, (_, i) => turn(i, [{ agent: 'A', text: 'x'.repeat(15_000) }]));

    const messages = projectTranscript(history, 'A');

    expect(messages).toHaveLength(4);
    expect(messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'question 3' }] });
  });
});
