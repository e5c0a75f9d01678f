import type { AgentExecutionEvent, ExecutionEventBus } from '@a2a-js/sdk/server';
import { describe, expect, it } from 'vitest';
import type { TurnEvent } from '../../src/runtime/events.js';
import { createTurnPublisher } from '../../src/a2a/turnPublisher.js';

// How a turn's answer becomes artifact chunks: one per turn of the event loop.

interface Chunk {
  text: string;
  append: boolean;
  lastChunk: boolean;
}

function recordingBus(): { bus: ExecutionEventBus; chunks: Chunk[] } {
  const chunks: Chunk[] = [];
  const bus = {
    publish(event: AgentExecutionEvent) {
      if (event.kind !== 'artifactUpdate') return;
      const update = event.data;
      const part = update.artifact?.parts[0]?.content;
      chunks.push({ text: part?.$case === 'text' ? part.value : '', append: update.append, lastChunk: update.lastChunk });
    },
  } as unknown as ExecutionEventBus;
  return { bus, chunks };
}

const envelope = { turnId: 't', agent: 'Assistant', depth: 0, at: 0 };
const start: TurnEvent = { ...envelope, type: 'turn-start', syndicate: 'S', input: 'hi' };
const delta = (text: string): TurnEvent => ({ ...envelope, type: 'text-delta', delta: text });
const end = (output: string): TurnEvent => ({ ...envelope, type: 'turn-end', status: 'completed', output });
const nextTurnOfTheLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('the answer as artifact chunks', () => {
  it('sends the deltas of one turn of the event loop as one chunk', () => {
    const { bus, chunks } = recordingBus();
    const publish = createTurnPublisher(bus, 'task', 'context');

    for (const event of [start, delta('Hello, '), delta('wide '), delta('world.'), end('Hello, wide world.')]) publish(event);

    expect(chunks).toStrictEqual([{ text: 'Hello, wide world.', append: false, lastChunk: true }]);
  });

  it('streams deltas that arrive across turns of the event loop, closing with an empty last chunk', async () => {
    const { bus, chunks } = recordingBus();
    const publish = createTurnPublisher(bus, 'task', 'context');

    publish(start);
    publish(delta('Hello, '));
    await nextTurnOfTheLoop();
    publish(delta('world.'));
    await nextTurnOfTheLoop();
    publish(end('Hello, world.'));

    expect(chunks).toStrictEqual([
      { text: 'Hello, ', append: false, lastChunk: false },
      { text: 'world.', append: true, lastChunk: false },
      { text: '', append: true, lastChunk: true },
    ]);
  });

  it('marks the held delta last when the turn ends before the loop turns', async () => {
    const { bus, chunks } = recordingBus();
    const publish = createTurnPublisher(bus, 'task', 'context');

    publish(start);
    publish(delta('Hello, '));
    await nextTurnOfTheLoop();
    publish(delta('world.'));
    publish(end('Hello, world.'));
    await nextTurnOfTheLoop();

    expect(chunks).toStrictEqual([
      { text: 'Hello, ', append: false, lastChunk: false },
      { text: 'world.', append: true, lastChunk: true },
    ]);
  });
});
