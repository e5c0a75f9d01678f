import { TaskState, type Message, type Task, type TaskStatusUpdateEvent } from '@a2a-js/sdk';
import type { AgentExecutionEvent, ExecutionEventBus } from '@a2a-js/sdk/server';
import { describe, expect, it } from 'vitest';
import type { TurnEvent } from '../../src/core/events.js';
import { ASKED_IN_TURN, createTurnPublisher, createWholeTaskPublisher } from '../../src/a2a/turnPublisher.js';

// How a turn's answer becomes artifact chunks: one per turn of the event loop; and how a caller
// that reads only the finished task gets it whole.

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

describe('the whole task, for a caller that reads only the finished task', () => {
  const task: Task = { id: 'task', contextId: 'context', status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: '' }, artifacts: [], history: [], metadata: undefined };
  const route: TurnEvent = { ...envelope, type: 'route', route: 'Billing', reason: 'it is about money', source: 'classifier' };

  function allEvents(): { bus: ExecutionEventBus; events: AgentExecutionEvent[] } {
    const events: AgentExecutionEvent[] = [];
    return { bus: { publish: (event: AgentExecutionEvent) => void events.push(event) } as unknown as ExecutionEventBus, events };
  }

  const texts = (messages: readonly Message[]): string[] => messages.map((message) => (message.parts[0]?.content?.$case === 'text' ? message.parts[0].content.value : ''));

  it('publishes nothing while the turn runs, then one task with the outcome, the answer and the progress in its history', () => {
    const { bus, events } = allEvents();
    const publish = createWholeTaskPublisher(bus, task);

    for (const event of [start, route, delta('Refunded.')]) publish(event);
    expect(events).toEqual([]);
    publish(end('Refunded.'));

    expect(events.map((event) => event.kind)).toEqual(['task']);
    const finished = events[0]!.data as Task;
    expect(finished.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(finished.artifacts.map((artifact) => artifact.parts[0]?.content)).toEqual([{ $case: 'text', value: 'Refunded.' }]);
    expect(texts(finished.history)).toEqual(['Routed to Billing — it is about money']);
  });

  it('says in the progress history when the work went to a nested syndicate or a remote agent', () => {
    const { bus, events } = allEvents();
    const publish = createWholeTaskPublisher(bus, task);
    const consult = (to: string, kind: 'subagent' | 'remote'): TurnEvent => ({ ...envelope, type: 'delegation-start', to, request: 'look it up', callId: to, kind });

    for (const event of [start, { ...route, kind: 'syndicate' as const }, consult('Researcher', 'subagent'), consult('Weather', 'remote'), end('Done.')]) publish(event);

    expect(texts((events[0]!.data as Task).history)).toEqual(['Routed to Billing (nested syndicate) — it is about money', 'Consulting Researcher', 'Consulting Weather (remote A2A agent)']);
  });

  it('ends a failed turn with its error as the status message, also kept in the history', () => {
    const { bus, events } = allEvents();
    const publish = createWholeTaskPublisher(bus, task);

    publish({ ...envelope, type: 'turn-end', status: 'failed', output: '', error: 'the model is down' });

    const failed = events[0]!.data as Task;
    expect(failed.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(texts(failed.history)).toEqual(['the model is down']);
    expect(failed.artifacts).toEqual([]);
  });

  it('ends a turn waiting for input with the task, then the input-required update naming the turn that asked', () => {
    const { bus, events } = allEvents();
    const publish = createWholeTaskPublisher(bus, task);

    publish({ ...envelope, type: 'turn-end', status: 'input-required', output: 'Which city?' });

    expect(events.map((event) => event.kind)).toEqual(['task', 'statusUpdate']);
    const update = events[1]!.data as TaskStatusUpdateEvent;
    expect(update.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(update.metadata).toEqual({ [ASKED_IN_TURN]: 't' });
  });
});
