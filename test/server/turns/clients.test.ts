import { afterEach, describe, expect, it } from 'vitest';
import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { HttpAgent, type AgentSubscriber } from '@ag-ui/client';
import type { DelegationPart, TurnMetadata } from '../../../src/server/turns/formats/uiMessageStream.js';
import type { AgUiDelegation } from '../../../src/server/turns/formats/agUi.js';
import { auth, startTurnServer, type TurnServer } from './harness.js';
import { council, QUESTION, waiter } from './fixtures.js';

// The AI SDK and AG-UI endpoints, driven by their official clients: ai's DefaultChatTransport and
// readUIMessageStream (what useChat does), and @ag-ui/client's HttpAgent.

let server: TurnServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type ChatMessage = UIMessage<TurnMetadata>;

function transport(api: string, syndicate: string): DefaultChatTransport<ChatMessage> {
  return new DefaultChatTransport<ChatMessage>({ api: `${api}/syndicates/${syndicate}/chat`, headers: auth() });
}

async function lastMessage(stream: ReadableStream<UIMessageChunk>): Promise<ChatMessage> {
  let last: ChatMessage | undefined;
  for await (const message of readUIMessageStream<ChatMessage>({ stream, terminateOnError: true })) last = message;
  return last!;
}

function send(chat: DefaultChatTransport<ChatMessage>, chatId: string, text: string): Promise<ReadableStream<UIMessageChunk>> {
  return chat.sendMessages({ trigger: 'submit-message', chatId, messageId: undefined, abortSignal: undefined, messages: [{ id: `m-${text}`, role: 'user', parts: [{ type: 'text', text }] }] });
}

const textOf = (message: ChatMessage): string => message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');

describe('AI SDK UI message stream', () => {
  it('streams the answer as text, delegations as tool parts and as a nested data-delegation tree', async () => {
    server = await startTurnServer([council()]);

    const message = await lastMessage(await send(transport(server.api, 'council'), 'chat-1', 'Hire a designer?'));

    expect(message.metadata).toMatchObject({ status: 'completed' });
    expect(textOf(message)).not.toBe('');
    const tools = message.parts.filter((part) => part.type === 'dynamic-tool');
    expect(tools.map((part) => [part.toolName, part.state])).toEqual(expect.arrayContaining([['Advocate', 'output-available'], ['Researcher', 'output-available'], ['Skeptic', 'output-available']]));
    const tree = message.parts.flatMap((part) => (part.type === 'data-delegation' ? [part.data as DelegationPart] : []));
    const advocate = tree.find((node) => node.agent === 'Advocate')!;
    expect(tree.find((node) => node.agent === 'Researcher')).toMatchObject({ parent: advocate.callId, depth: 2, status: 'completed' });
    expect(advocate).toMatchObject({ parent: null, depth: 1, status: 'completed' });
    expect(message.parts.some((part) => part.type === 'step-start')).toBe(true);
  });

  it('reconnects to a running turn and reads it whole; answers no stream once none runs', async () => {
    const { syndicate, gate } = waiter();
    server = await startTurnServer([syndicate]);
    const chat = transport(server.api, 'waiter');
    const first = await send(chat, 'chat-2', 'Please wait');
    await gate.reached;

    const resumed = await chat.reconnectToStream({ chatId: 'chat-2' });
    gate.open();
    const [original, again] = await Promise.all([lastMessage(first), lastMessage(resumed!)]);

    expect(again).toEqual(original);
    expect(textOf(again)).toBe('Done waiting.');
    expect(await chat.reconnectToStream({ chatId: 'chat-2' })).toBeNull();
  });

  it("ends a turn that asks the user input-required, and the chat's next message answers it", async () => {
    const { syndicate } = waiter();
    server = await startTurnServer([syndicate]);
    const chat = transport(server.api, 'waiter');

    const asked = await lastMessage(await send(chat, 'chat-3', 'Plan the offsite'));
    const answered = await lastMessage(await send(chat, 'chat-3', 'Lisbon'));

    expect(asked.metadata).toMatchObject({ status: 'input-required' });
    expect(textOf(asked)).toContain(QUESTION);
    expect(textOf(answered)).toBe('Lisbon booked.');
  });
});

describe('AG-UI', () => {
  function agentFor(api: string, syndicate: string, threadId: string): HttpAgent {
    return new HttpAgent({ url: `${api}/syndicates/${syndicate}/ag-ui`, headers: auth(), threadId });
  }

  it('runs a turn: the answer as an assistant message, delegations as steps, tool calls and a nested tree', async () => {
    server = await startTurnServer([council()]);
    const agent = agentFor(server.api, 'council', 'thread-1');
    agent.addMessage({ id: 'u1', role: 'user', content: 'Hire a designer?' });
    const steps: string[] = [];
    const tree: AgUiDelegation[] = [];
    const subscriber: AgentSubscriber = {
      onStepStartedEvent: ({ event }) => void steps.push(event.stepName),
      onCustomEvent: ({ event }) => void (event.name === 'syndicate.delegation' && tree.push(event.value as AgUiDelegation)),
    };

    const { result, newMessages } = await agent.runAgent({ runId: 'run-1' }, subscriber);

    expect(result).toMatchObject({ status: 'completed' });
    expect(steps.map((step) => step.split(' ')[0])).toEqual(expect.arrayContaining(['Advocate', 'Researcher', 'Skeptic']));
    const advocate = tree.find((node) => node.agent === 'Advocate')!;
    expect(tree.filter((node) => node.agent === 'Researcher').map((node) => node.status)).toEqual(['running', 'completed']);
    expect(tree.find((node) => node.agent === 'Researcher')).toMatchObject({ parent: advocate.callId, depth: 2 });
    const assistant = newMessages.filter((message) => message.role === 'assistant');
    expect(assistant.flatMap((message) => ('toolCalls' in message ? (message.toolCalls ?? []).map((call) => call.function.name) : []))).toEqual(expect.arrayContaining(['Advocate', 'Skeptic']));
    expect(assistant.some((message) => typeof message.content === 'string' && message.content.length > 0)).toBe(true);
  });

  it('continues the thread: an ask_user question is answered by the next run', async () => {
    const { syndicate } = waiter();
    server = await startTurnServer([syndicate]);
    const agent = agentFor(server.api, 'waiter', 'thread-2');
    agent.addMessage({ id: 'u1', role: 'user', content: 'Plan the offsite' });
    const asked = await agent.runAgent({ runId: 'run-1' });
    agent.addMessage({ id: 'u2', role: 'user', content: 'Lisbon' });

    const answered = await agent.runAgent({ runId: 'run-2' });

    expect(asked.result).toMatchObject({ status: 'input-required', output: QUESTION });
    expect(answered.result).toMatchObject({ status: 'completed', output: 'Lisbon booked.' });
  });
});
