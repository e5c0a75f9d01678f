import { TaskState, type Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { afterEach, describe, expect, it } from 'vitest';
import { a2aRemoteAgents } from '../../../src/a2a/client/index.js';
import type { CompiledSyndicate } from '../../../src/runtime/compileSyndicate.js';
import { agent, compile } from '../../runtime/fixtures.js';
import { clientFor, sendRequest, startServer, tempDbPath, textOf, type TestServer } from '../fixtures.js';
import { chairWith, LOOPBACK_ALLOWED, remoteSubagent } from './fixtures.js';
import { startRemoteServer, type RemoteServer } from './remoteServer.js';

// End to end: a caller cancels our task while it waits on a remote agent's question. That
// withdraws the question: the remote task is cancelled, and the conversation's next message is a
// new request, not the answer, whether the cancel reaches the server that asked or a restarted one.

const QUESTION = 'Which city do you mean?';

let remote: RemoteServer | undefined;
const servers: TestServer[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
  await remote?.stop();
  remote = undefined;
});

async function startWeather(options: { cancelFails?: boolean } = {}): Promise<RemoteServer> {
  remote = await startRemoteServer({ ...options, reply: (text) => (text.includes('Lyon') ? { kind: 'answer', chunks: ['Sunny in Lyon.'] } : { kind: 'ask', question: QUESTION }) });
  return remote;
}

/** Each server gets its own compile, as a restarted process would: nothing of the remote agent is kept in between. */
function chair(weather: RemoteServer): CompiledSyndicate {
  return chairWith(remoteSubagent('Weather', { cardUrl: weather.cardUrl }));
}

function desk(weather: RemoteServer): CompiledSyndicate {
  const routes = [agent('General', { description: 'Answers everything else.' }), remoteSubagent('Weather', { cardUrl: weather.cardUrl, description: 'Forecasts the weather for any city.' })];
  return compile(agent('Desk', { subagents: routes, dispatch: { default_route: 'General' } }), { env: {}, remoteAgents: a2aRemoteAgents({ policy: LOOPBACK_ALLOWED }) }, { name: 'Desk' });
}

async function serve(syndicate: CompiledSyndicate, dbPath: string): Promise<Client> {
  const server = await startServer(syndicate, { dbPath });
  servers.push(server);
  return clientFor(server.url, 'JSONRPC');
}

function asTask(result: unknown): Task {
  const task = result as Task;
  if (typeof task?.id !== 'string' || task.status === undefined) throw new Error(`expected a task, got ${JSON.stringify(result)}`);
  return task;
}

async function ask(client: Client): Promise<Task> {
  const asked = asTask(await client.sendMessage(sendRequest('What is the weather like?')));
  expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  return asked;
}

function cancel(client: Client, task: Task): Promise<Task> {
  return client.cancelTask({ tenant: '', id: task.id, metadata: undefined });
}

async function sendNext(client: Client, asked: Task): Promise<Task> {
  return asTask(await client.sendMessage(sendRequest('Lyon', { contextId: asked.contextId })));
}

function statusTexts(task: Task): string[] {
  return task.history.map((message) => textOf(message.parts));
}

describe('cancelling our task while it waits on a remote agent question', () => {
  it('cancels the remote task that asked', async () => {
    const weather = await startWeather();
    const client = await serve(chair(weather), tempDbPath());
    const asked = await ask(client);

    const cancelled = await cancel(client, asked);

    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(weather.cancelled).toEqual([weather.received[0]?.taskId]);
  });

  it('makes the next message in the conversation start a new remote task in the same remote context', async () => {
    const weather = await startWeather();
    const client = await serve(chair(weather), tempDbPath());
    const asked = await ask(client);
    await cancel(client, asked);

    const next = await sendNext(client, asked);

    expect(next.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const [question, request] = weather.received;
    expect(request).toMatchObject({ text: 'Lyon', continuedTaskId: '', contextId: question?.contextId });
    expect(request?.taskId).not.toBe(question?.taskId);
  });

  it('has the next message in a dispatch syndicate routed by the classifier, not back to the route that asked', async () => {
    const weather = await startWeather();
    const client = await serve(desk(weather), tempDbPath());
    const asked = await ask(client);
    await cancel(client, asked);

    const next = await sendNext(client, asked);

    expect(statusTexts(next)).toContain('Routed to General — no word overlap with any route; defaulting to General');
    expect(weather.received).toHaveLength(1);
  });

  it('still cancels our task when the remote agent fails to cancel its own, saying so', async () => {
    const weather = await startWeather({ cancelFails: true });
    const client = await serve(chair(weather), tempDbPath());
    const asked = await ask(client);

    const cancelled = await cancel(client, asked);

    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(weather.cancelled).toEqual([weather.received[0]?.taskId]);
    expect(textOf(cancelled.status?.message?.parts)).toContain(`Could not cancel the task ${weather.received[0]?.taskId} of the remote agent Weather`);
  });
});

describe('cancelling our waiting task on a server restarted after the question', () => {
  async function askThenRestart(syndicateOf: (weather: RemoteServer) => CompiledSyndicate): Promise<{ weather: RemoteServer; client: Client; asked: Task }> {
    const weather = await startWeather();
    const dbPath = tempDbPath();
    const asked = await ask(await serve(syndicateOf(weather), dbPath));
    await servers.pop()!.stop();
    return { weather, client: await serve(syndicateOf(weather), dbPath), asked };
  }

  it('cancels the remote task that asked at the cancel itself', async () => {
    const { weather, client, asked } = await askThenRestart(chair);

    const cancelled = await cancel(client, asked);

    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(weather.cancelled).toEqual([weather.received[0]?.taskId]);
  });

  it('starts a new remote task, in the same remote context, for the next message after the cancel', async () => {
    const { weather, client, asked } = await askThenRestart(chair);
    await cancel(client, asked);

    const next = await sendNext(client, asked);

    expect(next.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const [question, request] = weather.received;
    expect(request).toMatchObject({ text: 'Lyon', continuedTaskId: '', contextId: question?.contextId });
  });

  it('has the next message in a dispatch syndicate routed by the classifier', async () => {
    const { weather, client, asked } = await askThenRestart(desk);
    await cancel(client, asked);

    const next = await sendNext(client, asked);

    expect(statusTexts(next)).toContain('Routed to General — no word overlap with any route; defaulting to General');
    expect(weather.received).toHaveLength(1);
  });

  it('leaves alone a later question, asked by another task, when the first task is cancelled', async () => {
    const { weather, client, asked } = await askThenRestart(chair);
    const again = asTask(await client.sendMessage(sendRequest('The big one.', { contextId: asked.contextId })));
    expect(again.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);

    await cancel(client, asked);

    expect(weather.cancelled).toEqual([]);
    const next = await sendNext(client, again);
    expect(next.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(weather.received.at(-1)).toMatchObject({ text: 'Lyon', continuedTaskId: weather.received[0]?.taskId });
  });

  it('keeps the question open when the conversation goes on without a cancel', async () => {
    const { weather, client, asked } = await askThenRestart(chair);

    const next = await sendNext(client, asked);

    expect(next.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const [question, reply] = weather.received;
    expect(weather.cancelled).toEqual([]);
    expect(reply).toMatchObject({ text: 'Lyon', continuedTaskId: question?.taskId });
  });
});
