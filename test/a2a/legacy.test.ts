import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory, RestTransportFactory, type Client } from 'a2a-sdk-v03/client';
import type { Message, MessageSendParams, Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from 'a2a-sdk-v03';
import { afterEach, describe, expect, it } from 'vitest';
import { createGate, startServer, type TestServer } from './fixtures.js';
import { assistant, QUESTION } from './syndicates.js';

// 0.3 clients (the 0.3 SDK: message/send, message/stream, tasks/get, tasks/cancel,
// tasks/resubscribe, no A2A-Version header) are served through the SDK's compatibility mode.

let server: TestServer | undefined;

afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function legacyClient(baseUrl: string, binding: 'JSONRPC' | 'HTTP+JSON'): Promise<Client> {
  const factory = new ClientFactory({
    transports: [new JsonRpcTransportFactory(), new RestTransportFactory()],
    preferredTransports: [binding],
    cardResolver: new DefaultAgentCardResolver(),
  });
  return factory.createFromUrl(`${baseUrl}/.well-known/agent-card.json`, '');
}

type A2AStreamEventData = Message | Task | TaskStatusUpdateEvent | TaskArtifactUpdateEvent;

function send(text: string, ids: { taskId?: string; contextId?: string } = {}): MessageSendParams {
  const message: Message = { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }], ...ids };
  return { message };
}

function textOf(parts: ReadonlyArray<{ kind: string; text?: string }> | undefined): string {
  return (parts ?? []).map((part) => (part.kind === 'text' ? part.text : '')).join('');
}

function stateOf(event: A2AStreamEventData | undefined): string | undefined {
  if (event?.kind === 'task' || event?.kind === 'status-update') return event.status.state;
  return undefined;
}

describe.each(['JSONRPC', 'HTTP+JSON'] as const)('a 0.3 client over %s', (binding) => {
  it('sends a message and gets back the completed task, then reads it again', async () => {
    server = await startServer(assistant(createGate().tool));
    const client = await legacyClient(server.url, binding);

    const task = (await client.sendMessage(send('hello from 0.3'))) as Task;
    const again = await client.getTask({ id: task.id });

    expect(task.status.state).toBe('completed');
    expect(textOf(task.artifacts?.flatMap((artifact) => artifact.parts))).toMatch(/^\[Assistant\] On "hello from 0.3": /);
    expect(again).toMatchObject({ id: task.id, status: { state: 'completed' } });
  });

  it('streams the task: status updates, artifact chunks, and a final completed status', async () => {
    server = await startServer(assistant(createGate().tool));
    const client = await legacyClient(server.url, binding);

    const events: A2AStreamEventData[] = [];
    for await (const event of client.sendMessageStream(send('hello stream'))) events.push(event);

    expect(events[0]?.kind).toBe('task');
    expect(events.some((event) => event.kind === 'artifact-update')).toBe(true);
    expect(stateOf(events[events.length - 1])).toBe('completed');
  });

  it('cancels a running task and resubscribes to one mid-stream', async () => {
    const gate = createGate();
    server = await startServer(assistant(gate.tool));
    const client = await legacyClient(server.url, binding);
    const stream = client.sendMessageStream(send('please wait'));
    const first = (await stream.next()).value as A2AStreamEventData;
    await gate.reached;
    const taskId = first.kind === 'task' ? first.id : '';

    const resubscribed = client.resubscribeTask({ id: taskId });
    const joined = (await resubscribed.next()).value as A2AStreamEventData;
    const cancelled = await client.cancelTask({ id: taskId });
    const rest: A2AStreamEventData[] = [];
    for await (const event of resubscribed) rest.push(event);

    expect(joined.kind).toBe('task');
    expect(cancelled.status.state).toBe('canceled');
    expect(stateOf(rest[rest.length - 1])).toBe('canceled');
    await stream.return(undefined);
  });

  it('is refused a message with no parts as invalid params (-32602)', async () => {
    server = await startServer(assistant(createGate().tool));
    const client = await legacyClient(server.url, binding);

    const sending = client.sendMessage({ message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [] } });

    await expect(sending).rejects.toThrow(/-32602.*message.parts is empty|message.parts is empty.*-32602/);
  });

  it('continues a task that asked for input', async () => {
    server = await startServer(assistant(createGate().tool));
    const client = await legacyClient(server.url, binding);

    const asked = (await client.sendMessage(send('plan our offsite'))) as Task;
    const resumed = (await client.sendMessage(send('Lisbon', { taskId: asked.id, contextId: asked.contextId }))) as Task;

    expect(asked.status.state).toBe('input-required');
    expect(textOf(asked.status.message?.parts)).toBe(QUESTION);
    expect(resumed.status.state).toBe('completed');
  });
});
