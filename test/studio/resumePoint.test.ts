import { describe, expect, it } from 'vitest';
import type { StreamedEvent } from '../../src/studio/app/api.js';
import { ResumePoint } from '../../src/studio/app/resumePoint.js';

// A dropped turn stream resumed with Last-Event-ID: the server sends again what followed the
// last seq the chat saw (the live turn's text deltas included); the chat takes each event once.

function stored(seq: number): StreamedEvent {
  return { type: 'message', turnId: 't1', agent: 'Moderator', at: seq, depth: 0, text: `message ${seq}`, seq } as StreamedEvent;
}

function delta(text: string): StreamedEvent {
  return { type: 'text-delta', turnId: 't1', agent: 'Moderator', at: 0, depth: 0, delta: text } as StreamedEvent;
}

function accepted(point: ResumePoint, events: StreamedEvent[]): StreamedEvent[] {
  return events.filter((event) => point.accept(event));
}

describe('resuming a dropped turn stream', () => {
  it('remembers the last seq seen, for Last-Event-ID', () => {
    const point = new ResumePoint();

    accepted(point, [stored(1), delta('a'), stored(2), delta('b')]);

    expect(point.lastSeq).toBe(2);
  });

  it('drops stored events at or below the last seq when they come again', () => {
    const point = new ResumePoint();
    accepted(point, [stored(1), stored(2)]);
    point.reconnected();

    expect(accepted(point, [stored(1), stored(2), stored(3)])).toEqual([stored(3)]);
  });

  it('drops the text deltas replayed after the last seq, and takes the ones that follow them', () => {
    const point = new ResumePoint();
    accepted(point, [stored(1), delta('Hel'), delta('lo')]);
    point.reconnected();

    expect(accepted(point, [delta('Hel'), delta('lo'), delta(' world'), stored(2)])).toEqual([delta(' world'), stored(2)]);
  });

  it('takes every text delta once the replay has passed the last seq with stored events the chat had not seen', () => {
    const point = new ResumePoint();
    accepted(point, [stored(1), delta('Hel')]);
    point.reconnected();

    expect(accepted(point, [stored(2), delta('Next')])).toEqual([stored(2), delta('Next')]);
  });
});
