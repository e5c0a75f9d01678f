import { TaskState, type StreamResponse, type Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionIdFor } from '../../src/a2a/executor.js';
import { BINDINGS, clientFor, collectStream, createGate, sendRequest, startServer, textOf, type TestServer } from './fixtures.js';
import { assistant, council, helpDesk, keyless, QUESTION } from './syndicates.js';

// The protocol 1.0 methods, driven by the SDK's own client over each transport.

let server: TestServer | undefined;

afterEach(async () => {
  await server?.stop();
  server = undefined;
});

function asTask(result: unknown): Task {
  const task = result as Task;
  if (typeof task?.id !== 'string' || task.status === undefined) throw new Error(`expected a task, got ${JSON.stringify(result)}`);
  return task;
}

function answerOf(task: Task): string {
  return task.artifacts.map((artifact) => textOf(artifact.parts)).join('');
}

function statusTexts(events: readonly StreamResponse[]): string[] {
  return events.flatMap((event) => (event.payload?.$case === 'statusUpdate' ? [textOf(event.payload.value.status?.message?.parts)] : []));
}

function lastState(events: readonly StreamResponse[]): TaskState | undefined {
  const last = events[events.length - 1]?.payload;
  if (last?.$case === 'statusUpdate') return last.value.status?.state;
  if (last?.$case === 'task') return last.value.status?.state;
  return undefined;
}

/** Reads a stream in the background, resolving `until` once an event matches. */
function follow(stream: AsyncGenerator<StreamResponse>, until: (event: StreamResponse) => boolean) {
  const events: StreamResponse[] = [];
  let reached: () => void = () => undefined;
  const matched = new Promise<void>((resolve) => (reached = resolve));
  const done = (async () => {
    for await (const event of stream) {
      events.push(event);
      if (until(event)) reached();
    }
    return events;
  })();
  return { events, matched, done };
}

const isGateStatus = (event: StreamResponse): boolean => event.payload?.$case === 'statusUpdate' && textOf(event.payload.value.status?.message?.parts) === 'Using gate';

describe.each(BINDINGS)('over %s', (binding) => {
  async function serve(syndicate = assistant(createGate().tool)): Promise<Client> {
    server = await startServer(syndicate);
    return clientFor(server.url, binding);
  }

  it('answers SendMessage with a completed task carrying the answer as an artifact', async () => {
    const client = await serve();

    const task = asTask(await client.sendMessage(sendRequest('hello there')));

    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answerOf(task)).toMatch(/^\[Assistant\] On "hello there": /);
    expect(textOf(task.history[0]?.parts)).toBe('hello there');
  });

  // The scripted model answers in one turn of the event loop, so its answer is one chunk here;
  // turnPublisher.test.ts shows a paced answer streaming as several.
  it('streams the answer as artifact chunks, the last one marked, then completes', async () => {
    const client = await serve();

    const events = await collectStream(client.sendMessageStream(sendRequest('hello stream')));

    expect(events[0]?.payload?.$case).toBe('task');
    const chunks = events.flatMap((event) => (event.payload?.$case === 'artifactUpdate' ? [event.payload.value] : []));
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.map((chunk) => chunk.append)).toEqual([false, ...chunks.slice(1).map(() => true)]);
    expect(chunks.map((chunk) => chunk.lastChunk)).toEqual([...chunks.slice(1).map(() => false), true]);
    expect(chunks.map((chunk) => textOf(chunk.artifact?.parts)).join('')).toMatch(/^\[Assistant\] On "hello stream": /);
    expect(lastState(events)).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('reports the route and its reason as a working status before the specialist answers', async () => {
    const client = await serve(helpDesk());

    const events = await collectStream(client.sendMessageStream(sendRequest('I want a refund')));

    expect(statusTexts(events)).toContain('Routed to Billing — mentions a refund');
    const routed = events.findIndex((event) => event.payload?.$case === 'statusUpdate' && textOf(event.payload.value.status?.message?.parts).startsWith('Routed'));
    const firstChunk = events.findIndex((event) => event.payload?.$case === 'artifactUpdate');
    expect(routed).toBeLessThan(firstChunk);
    expect(events.filter((event) => event.payload?.$case === 'artifactUpdate').map((event) => (event.payload?.$case === 'artifactUpdate' ? textOf(event.payload.value.artifact?.parts) : '')).join('')).toMatch(/^\[Billing\]/);
  });

  it('reports each delegation as a working status', async () => {
    const client = await serve(council());

    const events = await collectStream(client.sendMessageStream(sendRequest('Should we adopt a four-day week?')));

    expect(statusTexts(events)).toEqual(expect.arrayContaining(['Consulting Advocate', 'Consulting Skeptic']));
    expect(lastState(events)).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('ends a turn that fails as a failed task whose status says why', async () => {
    const client = await serve(keyless());

    const task = asTask(await client.sendMessage(sendRequest('analyse this')));

    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(textOf(task.status?.message?.parts)).toContain('OPENAI_API_KEY');
  });

  it('returns a task by id with GetTask, history trimmed to historyLength', async () => {
    const client = await serve();
    const sent = asTask(await client.sendMessage(sendRequest('first')));

    const task = await client.getTask({ tenant: '', id: sent.id, historyLength: 0 });

    expect(task).toMatchObject({ id: sent.id, contextId: sent.contextId, history: [] });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('lists the tasks of a context newest first, a page at a time', async () => {
    const client = await serve();
    const first = asTask(await client.sendMessage(sendRequest('one')));
    const ids = [first.id];
    for (const text of ['two', 'three']) ids.push(asTask(await client.sendMessage(sendRequest(text, { contextId: first.contextId }))).id);
    await client.sendMessage(sendRequest('elsewhere'));

    const page1 = await client.listTasks({ tenant: '', contextId: first.contextId, status: TaskState.TASK_STATE_UNSPECIFIED, pageSize: 2, pageToken: '', statusTimestampAfter: undefined });
    const page2 = await client.listTasks({ tenant: '', contextId: first.contextId, status: TaskState.TASK_STATE_UNSPECIFIED, pageSize: 2, pageToken: page1.nextPageToken, statusTimestampAfter: undefined });

    expect(page1.totalSize).toBe(3);
    expect(page1.nextPageToken).not.toBe('');
    expect(page2.nextPageToken).toBe('');
    expect([...page1.tasks, ...page2.tasks].map((task) => task.id).sort()).toEqual([...ids].sort());
    expect(page1.tasks[0]?.artifacts).toEqual([]);
  });

  it('continues the conversation of a context: each task is one turn of the same session', async () => {
    const client = await serve();
    const first = asTask(await client.sendMessage(sendRequest('my name is Ada')));

    await client.sendMessage(sendRequest('what is my name?', { contextId: first.contextId }));

    const sessionId = sessionIdFor('assistant', { principal: 'local', userId: undefined }, first.contextId);
    const inputs = (await server!.store.readEvents(sessionId)).flatMap(({ event }) => (event.type === 'turn-start' ? [event.input] : []));
    expect(inputs).toEqual(['my name is Ada', 'what is my name?']);
  });

  it('cancels a running turn: the task ends canceled and the turn is aborted', async () => {
    const gate = createGate();
    const client = await serve(assistant(gate.tool));
    const stream = follow(client.sendMessageStream(sendRequest('please wait')), isGateStatus);
    await stream.matched;
    const taskId = stream.events[0]?.payload?.$case === 'task' ? stream.events[0].payload.value.id : '';

    const cancelled = await client.cancelTask({ tenant: '', id: taskId, metadata: undefined });
    await stream.done;

    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(lastState(stream.events)).toBe(TaskState.TASK_STATE_CANCELED);
    const task = await client.getTask({ tenant: '', id: taskId });
    const sessionId = sessionIdFor('assistant', { principal: 'local', userId: undefined }, task.contextId);
    const turnEnd = (await server!.store.readEvents(sessionId)).map(({ event }) => event).find((event) => event.type === 'turn-end');
    expect(turnEnd).toMatchObject({ status: 'cancelled' });
  });

  it('lets a second subscriber join a running task and see it finish', async () => {
    const gate = createGate();
    const client = await serve(assistant(gate.tool));
    const stream = follow(client.sendMessageStream(sendRequest('please wait')), isGateStatus);
    await stream.matched;
    const taskId = stream.events[0]?.payload?.$case === 'task' ? stream.events[0].payload.value.id : '';

    const resubscribed = follow(client.resubscribeTask({ tenant: '', id: taskId }), (event) => event.payload?.$case === 'task');
    await resubscribed.matched;
    gate.open();
    const [, events] = await Promise.all([stream.done, resubscribed.done]);

    expect(events[0]?.payload?.$case).toBe('task');
    expect(events.some((event) => event.payload?.$case === 'artifactUpdate' && textOf(event.payload.value.artifact?.parts).includes('Done waiting.'))).toBe(true);
    expect(lastState(events)).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('asks for input, then resumes the same task with the reply', async () => {
    const client = await serve();

    const asked = asTask(await client.sendMessage(sendRequest('plan our offsite')));
    const resumed = asTask(await client.sendMessage(sendRequest('Lisbon', { taskId: asked.id, contextId: asked.contextId })));

    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(textOf(asked.status?.message?.parts)).toBe(QUESTION);
    expect(resumed.id).toBe(asked.id);
    expect(resumed.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answerOf(resumed)).toBe('Lisbon booked.');
    expect(resumed.history.map((message) => textOf(message.parts))).toEqual(expect.arrayContaining(['plan our offsite', 'Lisbon']));
  });

  it('cancels a task that waits for input', async () => {
    const client = await serve();
    const asked = asTask(await client.sendMessage(sendRequest('plan our offsite')));

    const cancelled = await client.cancelTask({ tenant: '', id: asked.id, metadata: undefined });

    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });
});
