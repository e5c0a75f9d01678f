import { TaskState, type Task } from '@a2a-js/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { a2aRemoteAgents } from '../../../src/a2a/client/index.js';
import type { CompiledSyndicate } from '../../../src/runtime/compileSyndicate.js';
import { agent, compile } from '../../runtime/fixtures.js';
import { clientFor, sendRequest, startServer, textOf, type TestServer } from '../fixtures.js';
import { chairWith, LOOPBACK_ALLOWED, remoteSubagent } from './fixtures.js';
import { startRemoteServer, type RemoteServer } from './remoteServer.js';

// End to end: a caller talks to our A2A server, whose syndicate uses a remote agent (an SDK-built
// loopback server) that asks a question. The question reaches the caller as our task's
// INPUT_REQUIRED, and the caller's reply on the same task continues the same remote task.

const QUESTION = 'Which city do you mean?';

let remote: RemoteServer | undefined;
let server: TestServer | undefined;

afterEach(async () => {
  await server?.stop();
  await remote?.stop();
  server = undefined;
  remote = undefined;
});

async function startWeather(): Promise<RemoteServer> {
  remote = await startRemoteServer({ reply: (text) => (text.includes('Lyon') ? { kind: 'answer', chunks: ['Sunny in Lyon.'] } : { kind: 'ask', question: QUESTION }) });
  return remote;
}

function asTask(result: unknown): Task {
  const task = result as Task;
  if (typeof task?.id !== 'string' || task.status === undefined) throw new Error(`expected a task, got ${JSON.stringify(result)}`);
  return task;
}

/** Asks our server about the weather, then answers the question on the same task. */
async function askThenAnswer(syndicate: CompiledSyndicate): Promise<{ asked: Task; answered: Task }> {
  server = await startServer(syndicate);
  const client = await clientFor(server.url, 'JSONRPC');
  const asked = asTask(await client.sendMessage(sendRequest('What is the weather like?')));
  const answered = asTask(await client.sendMessage(sendRequest('Lyon', { taskId: asked.id, contextId: asked.contextId })));
  return { asked, answered };
}

function answerOf(task: Task): string {
  return task.artifacts.map((artifact) => textOf(artifact.parts)).join('');
}

describe('a remote agent asking for input, behind our A2A server', () => {
  it("as a delegate, puts our task in INPUT_REQUIRED with its question, and the caller's reply continues the remote task", async () => {
    const weather = await startWeather();

    const { asked, answered } = await askThenAnswer(chairWith(remoteSubagent('Weather', { cardUrl: weather.cardUrl })));

    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(textOf(asked.status?.message?.parts)).toBe(QUESTION);
    expect(answered.id).toBe(asked.id);
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answerOf(answered)).toContain('Weather: Sunny in Lyon.');
    const [question, reply] = weather.received;
    expect(reply).toMatchObject({ text: 'Lyon', continuedTaskId: question?.taskId, contextId: question?.contextId });
  });

  it("as a dispatch route, puts our task in INPUT_REQUIRED with its question, and the caller's reply goes back to it", async () => {
    const weather = await startWeather();
    const routes = [agent('General', { description: 'Answers everything else.' }), remoteSubagent('Weather', { cardUrl: weather.cardUrl, description: 'Forecasts the weather for any city.' })];
    const desk = compile(agent('Desk', { subagents: routes, dispatch: { default_route: 'General' } }), { env: {}, remoteAgents: a2aRemoteAgents({ policy: LOOPBACK_ALLOWED }) }, { name: 'Desk' });

    const { asked, answered } = await askThenAnswer(desk);

    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(textOf(asked.status?.message?.parts)).toBe(QUESTION);
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answerOf(answered)).toBe('Sunny in Lyon.');
    expect(answered.history.map((message) => textOf(message.parts))).toContain('Routed to Weather (remote A2A agent) — answers the question Weather asked');
    const [question, reply] = weather.received;
    expect(reply).toMatchObject({ text: 'Lyon', continuedTaskId: question?.taskId, contextId: question?.contextId });
  });
});
