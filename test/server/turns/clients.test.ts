import { afterEach, describe, expect, it, vi } from 'vitest';
import { AbstractChat, DefaultChatTransport, readUIMessageStream, type ChatState, type UIMessage, type UIMessageChunk } from 'ai';
import { HttpAgent, type AgentSubscriber, type Message, type RunAgentParameters, type SubagentErrorEvent, type SubagentStartedEvent } from '@ag-ui/client';
import type { TurnEvent, TurnEventBody } from '../../../src/core/events.js';
import { sessionIdFor } from '../../../src/server/sessionAccess.js';
import { agUiFormat } from '../../../src/server/turns/formats/agUi.js';
import type { StreamFormat } from '../../../src/server/turns/formats/streamFormat.js';
import { uiMessageStreamFormat, type DelegationPart, type ToolCaller, type TurnMetadata } from '../../../src/server/turns/formats/uiMessageStream.js';
import { auth, startTurnServer, type TurnServer } from './harness.js';
import { brokenWriter, calculatingCouncil, council, DROPPED, lateWaiter, planningTeam, QUESTION, RESEARCHER_THINKS, shakyTeam, triageDesk, waiter, waitingTeam } from './fixtures.js';

// The AI SDK and AG-UI endpoints, driven by their official clients: ai's DefaultChatTransport and
// readUIMessageStream, ai's AbstractChat (the chat useChat wraps in React state), and
// @ag-ui/client's HttpAgent. useChat itself runs in a browser in test/studio/useChat.test.ts.

let server: TurnServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type ChatMessage = UIMessage<TurnMetadata>;

function transport(api: string, syndicate: string, fetch?: typeof globalThis.fetch): DefaultChatTransport<ChatMessage> {
  return new DefaultChatTransport<ChatMessage>({ api: `${api}/syndicates/${syndicate}/chat`, headers: auth(), ...(fetch === undefined ? {} : { fetch }) });
}

async function lastMessage(stream: ReadableStream<UIMessageChunk>): Promise<ChatMessage> {
  let last: ChatMessage | undefined;
  for await (const message of readUIMessageStream<ChatMessage>({ stream, terminateOnError: true })) last = message;
  return last!;
}

function send(chat: DefaultChatTransport<ChatMessage>, chatId: string, text: string): Promise<ReadableStream<UIMessageChunk>> {
  return chat.sendMessages({ trigger: 'submit-message', chatId, messageId: undefined, abortSignal: undefined, messages: [{ id: `m-${text}`, role: 'user', parts: [{ type: 'text', text }] }] });
}

const treeOf = (message: ChatMessage): DelegationPart[] => message.parts.flatMap((part) => (part.type === 'data-delegation' ? [part.data as DelegationPart] : []));

const textOf = (message: ChatMessage): string => message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');

describe('AI SDK UI message stream', () => {
  it('streams the answer as text, delegations as tool parts and as a nested data-delegation tree', async () => {
    server = await startTurnServer([council()]);

    const message = await lastMessage(await send(transport(server.api, 'council'), 'chat-1', 'Hire a designer?'));

    expect(message.metadata).toMatchObject({ status: 'completed' });
    expect(textOf(message)).not.toBe('');
    const tools = message.parts.filter((part) => part.type === 'dynamic-tool');
    expect(tools.map((part) => [part.toolName, part.state])).toEqual(expect.arrayContaining([['Advocate', 'output-available'], ['Researcher', 'output-available'], ['Skeptic', 'output-available']]));
    const tree = treeOf(message);
    const advocate = tree.find((node) => node.agent === 'Advocate')!;
    expect(tree.find((node) => node.agent === 'Researcher')).toMatchObject({ parent: advocate.callId, depth: 2, status: 'completed' });
    expect(advocate).toMatchObject({ parent: null, depth: 1, status: 'completed' });
    expect(message.parts.some((part) => part.type === 'step-start')).toBe(true);
  });

  it("shows a subagent's tool call, with its arguments and result, and its thinking as parts that name its delegation", async () => {
    server = await startTurnServer([calculatingCouncil()]);

    const message = await lastMessage(await send(transport(server.api, 'council'), 'chat-4', 'Hire a designer?'));

    const researcher = treeOf(message).find((node) => node.agent === 'Researcher')!;
    const calculator = message.parts.find((part) => part.type === 'dynamic-tool' && part.toolName === 'calculator');
    const caller: ToolCaller = { agent: 'Researcher', delegation: researcher.callId, depth: 2 };
    expect(calculator).toMatchObject({ state: 'output-available', input: { expression: '6*7' }, toolMetadata: caller });
    expect(JSON.stringify(calculator?.type === 'dynamic-tool' && calculator.output)).toContain('42');
    expect(researcher).toMatchObject({ status: 'completed', output: '42 designers are looking for work.' });
    expect(message.parts.find((part) => part.type === 'reasoning')).toMatchObject({ text: RESEARCHER_THINKS, providerMetadata: { syndicate: caller } });
  });

  it("gives the route and its reason as a data-route part, and the specialist's answer as the text", async () => {
    server = await startTurnServer([triageDesk()]);

    const message = await lastMessage(await send(transport(server.api, 'triage'), 'chat-5', 'Where is my invoice for last month?'));

    const route = message.parts.find((part) => part.type === 'data-route');
    expect(route?.type === 'data-route' && route.data).toMatchObject({ route: 'Billing', source: 'classifier', reason: expect.stringContaining('invoice') });
    expect(textOf(message)).not.toBe('');
  });

  it("ends a turn whose subagent asked the user input-required, the question as the answer's text, its delegation input-required", async () => {
    server = await startTurnServer([planningTeam()]);

    const message = await lastMessage(await send(transport(server.api, 'team'), 'chat-6', 'Plan the offsite'));

    expect(message.metadata).toMatchObject({ status: 'input-required' });
    expect(textOf(message)).toBe(QUESTION);
    expect(treeOf(message)).toEqual([expect.objectContaining({ agent: 'Planner', status: 'input-required' })]);
  });

  it('reconnects to a running turn and reads it whole; answers no stream once none runs, and 404 naming the known syndicates for an unknown one', async () => {
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
    const unknown = await fetch(`${server.api}/syndicates/waitr/chat/chat-2/stream`, { headers: auth() });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { detail: string }).detail).toContain('known: waiter');
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

  it('ends every tool part of a turn whose subagent asked the user in a final state, the delegation answered with the question', async () => {
    server = await startTurnServer([planningTeam()]);

    const message = await lastMessage(await send(transport(server.api, 'team'), 'chat-7', 'Plan the offsite'));

    const tools = message.parts.filter((part) => part.type === 'dynamic-tool');
    expect(tools.map((part) => [part.toolName, part.state])).toEqual([
      ['Planner', 'output-available'],
      ['ask_user', 'output-available'],
    ]);
    expect(tools[0]!.state === 'output-available' && tools[0]!.output).toBe(QUESTION);
  });

  it("ends a subagent's thinking when its model fails mid-thought, so the reader keeps reading the root's later steps", async () => {
    server = await startTurnServer([shakyTeam()]);
    const errors: unknown[] = [];

    let message: ChatMessage | undefined;
    const stream = await send(transport(server.api, 'shaky'), 'chat-8', 'How many designers are out of work?');
    for await (const each of readUIMessageStream<ChatMessage>({ stream, onError: (error) => void errors.push(error) })) message = each;

    expect(errors).toEqual([]);
    expect(message!.metadata).toMatchObject({ status: 'completed' });
    expect(message!.parts.filter((part) => part.type === 'reasoning').map((part) => part.state)).toEqual(['done']);
    expect(textOf(message!)).toBe('About 42 designers.');
  });
});

/** ai's chat, its state a plain list (what @ai-sdk/react's Chat keeps in React state for useChat). */
class Chat extends AbstractChat<ChatMessage> {
  constructor(api: string, syndicate: string, id: string, fetch?: typeof globalThis.fetch) {
    const state: ChatState<ChatMessage> = {
      status: 'ready',
      error: undefined,
      messages: [],
      pushMessage: (message) => void (state.messages = [...state.messages, message]),
      popMessage: () => void (state.messages = state.messages.slice(0, -1)),
      replaceMessage: (index, message) => void (state.messages = state.messages.map((each, at) => (at === index ? message : each))),
      snapshot: (thing) => structuredClone(thing),
    };
    super({ id, transport: transport(api, syndicate, fetch), state });
  }
}

describe("the AI SDK's chat (what useChat runs)", () => {
  it('keeps the conversation in one session: a question asked, then answered by the next message', async () => {
    const { syndicate } = waiter();
    server = await startTurnServer([syndicate]);
    const chat = new Chat(server.api, 'waiter', 'use-chat-1');

    await chat.sendMessage({ text: 'Plan the offsite' });
    await chat.sendMessage({ text: 'Lisbon' });

    expect(chat.error).toBeUndefined();
    expect(chat.status).toBe('ready');
    expect(chat.messages.map((message) => [message.role, message.role === 'user' ? textOf(message) : message.metadata?.status])).toEqual([
      ['user', 'Plan the offsite'],
      ['assistant', 'input-required'],
      ['user', 'Lisbon'],
      ['assistant', 'completed'],
    ]);
    expect(textOf(chat.messages[1]!)).toBe(QUESTION);
    expect(textOf(chat.lastMessage!)).toBe('Lisbon booked.');
  });

  it("ends a failed turn's half-streamed answer, thinking and cut-short calls before its error, which the chat (stopping there) still shows ended, with the turn's status", async () => {
    server = await startTurnServer([brokenWriter(), lateWaiter(1_000).syndicate]);
    const writing = new Chat(server.api, 'writer', 'use-chat-4');
    const waiting = new Chat(server.api, 'late', 'use-chat-5');

    await writing.sendMessage({ text: 'When do we ship?' });
    await waiting.sendMessage({ text: 'Please wait' });

    expect(writing.status).toBe('error');
    expect(writing.error?.message).toBe(DROPPED);
    expect(writing.lastMessage).toMatchObject({ role: 'assistant', metadata: { status: 'failed' } });
    expect(writing.lastMessage!.parts.flatMap((part) => (part.type === 'text' || part.type === 'reasoning' ? [[part.type, part.state]] : []))).toEqual([
      ['reasoning', 'done'],
      ['text', 'done'],
    ]);
    expect(waiting.error?.message).toContain('deadline');
    expect(waiting.lastMessage!.parts.find((part) => part.type === 'dynamic-tool')).toMatchObject({ toolName: 'gate', state: 'output-error' });
  });

  it('shows the delegation tree as the turn streams, and resumes a running turn in a chat opened again', async () => {
    const { syndicate, gate } = waiter();
    server = await startTurnServer([syndicate, council()]);
    const first = new Chat(server.api, 'council', 'use-chat-2');
    await first.sendMessage({ text: 'Hire a designer?' });
    const running = new Chat(server.api, 'waiter', 'use-chat-3');
    const sent = running.sendMessage({ text: 'Please wait' });
    await gate.reached;

    // A page opened again shows the messages it had, then resumes the stream (useChat's resume: true).
    const reopened = new Chat(server.api, 'waiter', 'use-chat-3');
    reopened.messages = running.messages.filter((message) => message.role === 'user');
    const resumed = reopened.resumeStream();
    // The turn goes on once the resumed stream is open (a turn already over has no stream to resume).
    await expect.poll(() => reopened.status).toBe('streaming');
    gate.open();
    await Promise.all([sent, resumed]);

    expect(treeOf(first.lastMessage!).map((node) => [node.agent, node.status])).toEqual(expect.arrayContaining([['Advocate', 'completed'], ['Skeptic', 'completed']]));
    expect(textOf(first.lastMessage!)).not.toBe('');
    expect(reopened.lastMessage).toMatchObject({ role: 'assistant', metadata: { status: 'completed' } });
    expect(textOf(reopened.lastMessage!)).toBe('Done waiting.');
  });
});

const toolCallsOf = (message: Message) => (message.role === 'assistant' ? (message.toolCalls ?? []) : []);

/** The result the run gave each of its tool calls (undefined: none), by the call's id. */
function resultsOf(messages: readonly Message[]): Map<string, string | undefined> {
  const results = new Map(messages.flatMap(toolCallsOf).map((call) => [call.id, undefined as string | undefined]));
  for (const message of messages) if (message.role === 'tool') results.set(message.toolCallId, String(message.content));
  return results;
}

const cancel = (api: string, sessionId: string): Promise<Response> => fetch(`${api}/sessions/${sessionId}/cancel`, { method: 'POST', headers: auth() });

describe('AG-UI', () => {
  function agentFor(api: string, syndicate: string, threadId: string): HttpAgent {
    return new HttpAgent({ url: `${api}/syndicates/${syndicate}/ag-ui`, headers: auth(), threadId });
  }

  it('runs a turn: the answer as an assistant message, delegations as subagents spawned by tool calls, and as steps', async () => {
    server = await startTurnServer([council()]);
    const agent = agentFor(server.api, 'council', 'thread-1');
    agent.addMessage({ id: 'u1', role: 'user', content: 'Hire a designer?' });
    const steps: string[] = [];
    const subagents: SubagentStartedEvent[] = [];
    const finished: string[] = [];
    const subscriber: AgentSubscriber = {
      onStepStartedEvent: ({ event }) => void steps.push(event.stepName),
      onSubagentStartedEvent: ({ event }) => void subagents.push(event),
      onSubagentFinishedEvent: ({ event }) => void finished.push(event.subagentRunId),
    };

    const { result, newMessages } = await agent.runAgent({ runId: 'run-1' }, subscriber);

    expect(result).toMatchObject({ status: 'completed' });
    expect(steps.map((step) => step.split(' ')[0])).toEqual(expect.arrayContaining(['Advocate', 'Researcher', 'Skeptic']));
    const advocate = subagents.find((event) => event.name === 'Advocate')!;
    expect(advocate.parentSubagentRunId).toBeUndefined();
    expect(subagents.find((event) => event.name === 'Researcher')).toMatchObject({ parentSubagentRunId: advocate.subagentRunId });
    expect(finished.sort()).toEqual(subagents.map((event) => event.subagentRunId).sort());
    const root = newMessages.filter((message) => message.role === 'assistant' && message.subagentRunId === undefined);
    expect(root.flatMap(toolCallsOf).map((call) => call.function.name)).toEqual(expect.arrayContaining(['Advocate', 'Skeptic']));
    expect(root.some((message) => typeof message.content === 'string' && message.content.length > 0)).toBe(true);
  });

  it("shows a subagent's thinking, tool call and result as messages of its subagent run, the call with its arguments", async () => {
    server = await startTurnServer([calculatingCouncil()]);
    const agent = agentFor(server.api, 'council', 'thread-3');
    agent.addMessage({ id: 'u1', role: 'user', content: 'Hire a designer?' });
    const subagents: SubagentStartedEvent[] = [];

    const { newMessages } = await agent.runAgent({ runId: 'run-1' }, { onSubagentStartedEvent: ({ event }) => void subagents.push(event) });

    const researcher = subagents.find((event) => event.name === 'Researcher')!.subagentRunId;
    const own = newMessages.filter((message) => message.subagentRunId === researcher);
    const call = own.flatMap(toolCallsOf).find((each) => each.function.name === 'calculator')!;
    expect(JSON.parse(call.function.arguments)).toEqual({ expression: '6*7' });
    expect(own.find((message) => message.role === 'tool' && message.toolCallId === call.id)?.content).toContain('42');
    expect(own.find((message) => message.role === 'reasoning')?.content).toBe(RESEARCHER_THINKS);
    expect(own.some((message) => message.role === 'assistant' && message.content === '42 designers are looking for work.')).toBe(true);
    const advocate = newMessages.filter((message) => message.subagentRunId === subagents.find((event) => event.name === 'Advocate')!.subagentRunId);
    expect(advocate.flatMap(toolCallsOf).map((each) => each.id)).toContain(researcher);
  });

  it('ends a run whose subagent asked the user with the interrupt outcome, the interrupt of that subagent, which ends suspended naming it', async () => {
    server = await startTurnServer([planningTeam()]);
    const agent = agentFor(server.api, 'team', 'thread-4');
    agent.addMessage({ id: 'u1', role: 'user', content: 'Plan the offsite' });
    const subagents: SubagentStartedEvent[] = [];
    const outcomes: unknown[] = [];

    await agent.runAgent(
      { runId: 'run-1' },
      { onSubagentStartedEvent: ({ event }) => void subagents.push(event), onSubagentFinishedEvent: ({ event }) => void outcomes.push(event.outcome) },
    );

    const [interrupt] = agent.pendingInterrupts;
    expect(agent.pendingInterrupts).toHaveLength(1);
    expect(interrupt).toMatchObject({ reason: 'input_required', message: QUESTION, subagentRunId: subagents[0]!.subagentRunId, metadata: { syndicate: { agent: 'Planner' } } });
    expect(outcomes).toEqual([{ type: 'suspended', interruptIds: [interrupt!.id] }]);
  });

  it('gives the route and its reason as a CUSTOM syndicate.route event', async () => {
    server = await startTurnServer([triageDesk()]);
    const agent = agentFor(server.api, 'triage', 'thread-5');
    agent.addMessage({ id: 'u1', role: 'user', content: 'Where is my invoice for last month?' });
    const custom: Array<{ name: string; value: unknown }> = [];

    const { result } = await agent.runAgent({ runId: 'run-1' }, { onCustomEvent: ({ event }) => void custom.push(event) });

    expect(result).toMatchObject({ status: 'completed' });
    expect(custom).toEqual([{ type: 'CUSTOM', name: 'syndicate.route', value: { route: 'Billing', source: 'classifier', reason: expect.stringContaining('invoice') } }]);
  });

  /** An agent on the waiter whose first run, asking to plan the offsite, ended on its question; the outcomes the runs ended with. */
  async function askedWaiter(threadId: string) {
    const { syndicate } = waiter();
    server = await startTurnServer([syndicate]);
    const agent = agentFor(server.api, 'waiter', threadId);
    const outcomes: string[] = [];
    agent.subscribe({ onRunFinishedEvent: ({ outcome }) => void outcomes.push(outcome) });
    agent.addMessage({ id: 'u1', role: 'user', content: 'Plan the offsite' });
    await agent.runAgent({ runId: 'run-1' });
    return { agent, outcomes, interrupt: agent.pendingInterrupts[0]! };
  }

  /** How many events the thread's session has stored; 0 when it has none. */
  async function storedEvents(threadId: string): Promise<number> {
    const store = await server!.platform.store();
    return (await store.getSession(sessionIdFor('alice', threadId)))?.eventCount ?? 0;
  }

  /** What the client rejects a run the server refuses with; it logs the refusal to console.error first, silenced here. */
  async function refusal(agent: HttpAgent, parameters: RunAgentParameters): Promise<unknown> {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await agent.runAgent(parameters);
    } catch (error) {
      return error;
    } finally {
      quiet.mockRestore();
    }
    throw new Error('the server ran the run instead of refusing it');
  }

  it('ends a run whose agent called ask_user with the interrupt outcome: one interrupt, its message the question, answered as text', async () => {
    const { outcomes, interrupt, agent } = await askedWaiter('thread-2');

    expect(outcomes).toEqual(['interrupt']);
    expect(agent.pendingInterrupts).toEqual([interrupt]);
    expect(interrupt).toMatchObject({ id: expect.any(String), reason: 'input_required', message: QUESTION, responseSchema: { type: 'string' } });
    expect(interrupt.subagentRunId).toBeUndefined();
  });

  it('continues the turn when the next run resumes with the answer: the agent reads the answer, and the run finishes with its reply', async () => {
    const { agent, outcomes, interrupt } = await askedWaiter('thread-9');

    const answered = await agent.runAgent({ runId: 'run-2', resume: [{ interruptId: interrupt.id, status: 'resolved', payload: 'Lisbon' }] });

    expect(outcomes).toEqual(['interrupt', 'success']);
    expect(answered.result).toMatchObject({ status: 'completed', output: 'Lisbon booked.' });
    expect(agent.pendingInterrupts).toEqual([]);
  });

  it('tells the agent the user declined when the next run resumes with the interrupt cancelled, and the turn goes on', async () => {
    const { agent, interrupt } = await askedWaiter('thread-11');

    const declined = await agent.runAgent({ runId: 'run-2', resume: [{ interruptId: interrupt.id, status: 'cancelled' }] });

    expect(declined.result).toMatchObject({ status: 'completed', output: 'Booking nothing, then.' });
  });

  it('refuses with a 409 a resume naming an interrupt the thread does not wait on, and stores nothing', async () => {
    const { interrupt } = await askedWaiter('thread-12');
    const before = await storedEvents('thread-12');
    const stranger = agentFor(server!.api, 'waiter', 'thread-12');

    const refused = await refusal(stranger, { runId: 'run-2', resume: [{ interruptId: 'not-a-question', status: 'resolved', payload: 'Lisbon' }] });

    expect(refused).toMatchObject({ status: 409, message: expect.stringContaining(`the one waiting for an answer is '${interrupt.id}'`) });
    expect(await storedEvents('thread-12')).toBe(before);
  });

  it('refuses with a 409 a resume on a thread whose last run asked nothing, and stores nothing', async () => {
    const { syndicate } = waiter();
    server = await startTurnServer([syndicate]);
    const agent = agentFor(server.api, 'waiter', 'thread-13');
    agent.addMessage({ id: 'u1', role: 'user', content: 'hello' });
    await agent.runAgent({ runId: 'run-1' });
    const before = await storedEvents('thread-13');

    const refused = await refusal(agent, { runId: 'run-2', resume: [{ interruptId: 'any', status: 'resolved', payload: 'Lisbon' }] });

    expect(refused).toMatchObject({ status: 409, message: expect.stringContaining('no interrupt waiting for an answer') });
    expect(await storedEvents('thread-13')).toBe(before);
  });

  it('refuses with a 409 a resume sent while the thread has a run going, and the run goes on', async () => {
    const { syndicate, gate } = waiter();
    server = await startTurnServer([syndicate]);
    const agent = agentFor(server.api, 'waiter', 'thread-15');
    agent.addMessage({ id: 'u1', role: 'user', content: 'Please wait' });
    const running = agent.runAgent({ runId: 'run-1' });
    await gate.reached;

    const refused = await refusal(agentFor(server.api, 'waiter', 'thread-15'), { runId: 'run-2', resume: [{ interruptId: 'any', status: 'cancelled' }] });
    gate.open();

    expect(refused).toMatchObject({ status: 409, message: expect.stringContaining('has a run going') });
    expect((await running).result).toMatchObject({ status: 'completed', output: 'Done waiting.' });
  });

  it('refuses with a 400 naming the field a resume that answers with no text', async () => {
    const { agent, interrupt } = await askedWaiter('thread-14');
    const before = await storedEvents('thread-14');

    const refused = await refusal(agent, { runId: 'run-2', resume: [{ interruptId: interrupt.id, status: 'resolved', payload: { city: 'Lisbon' } }] });

    expect(refused).toMatchObject({ status: 400, message: expect.stringContaining('resume.0.payload') });
    expect(await storedEvents('thread-14')).toBe(before);
  });
  /** Runs the agent, calling `during` once the run is under way; what the client's subscriber heard. */
  async function runWatched(agent: HttpAgent, during: () => Promise<unknown> = async () => undefined) {
    const heard = { outcomes: [] as string[], errors: [] as string[], subagentErrors: [] as SubagentErrorEvent[], steps: 0 };
    const subscriber: AgentSubscriber = {
      onRunFinishedEvent: ({ outcome }) => void heard.outcomes.push(outcome),
      onRunErrorEvent: ({ event }) => void heard.errors.push(event.message),
      onSubagentErrorEvent: ({ event }) => void heard.subagentErrors.push(event),
      onStepStartedEvent: () => void (heard.steps += 1),
      onStepFinishedEvent: () => void (heard.steps -= 1),
    };
    const running = agent.runAgent({ runId: 'run-1' }, subscriber);
    await during();
    const { newMessages } = await running;
    return { ...heard, newMessages };
  }

  it('ends a tool call that a cancelled turn cut short, so the AG-UI client accepts the run: the call answered as cancelled, then RUN_FINISHED with the cancelled outcome', async () => {
    const { syndicate, gate } = waiter();
    server = await startTurnServer([syndicate]);
    const agent = agentFor(server.api, 'waiter', 'thread-6');
    agent.addMessage({ id: 'u1', role: 'user', content: 'Please wait' });

    const run = await runWatched(agent, async () => {
      await gate.reached;
      await cancel(server!.api, 'thread-6');
    });

    expect(run.outcomes).toEqual(['cancelled']);
    expect(run.errors).toEqual([]);
    expect([...resultsOf(run.newMessages)]).toEqual([[expect.any(String), 'the turn ended cancelled before this call answered']]);
  });

  it("ends a subagent that a cancel cut short mid-tool-call in error, with its step, its call and the delegation's call answered, before RUN_FINISHED", async () => {
    const { syndicate, gate } = waitingTeam();
    server = await startTurnServer([syndicate]);
    const agent = agentFor(server.api, 'team', 'thread-7');
    agent.addMessage({ id: 'u1', role: 'user', content: 'Find the data' });

    const run = await runWatched(agent, async () => {
      await gate.reached;
      await cancel(server!.api, 'thread-7');
    });

    expect(run.outcomes).toEqual(['cancelled']);
    expect(run.subagentErrors).toEqual([expect.objectContaining({ code: 'cancelled' })]);
    expect(run.steps).toBe(0);
    const results = resultsOf(run.newMessages);
    expect(results.size).toBe(2);
    for (const result of results.values()) expect(result).toBe('the turn ended cancelled before this call answered');
    expect(run.newMessages.find((message) => message.role === 'reasoning')?.content).toBe('Let me wait for the data.');
  });

  it('answers the tool call a failed turn cut short before RUN_ERROR, so the thread holds no call without its result', async () => {
    // Long enough for the gate to be called: the turn then waits there until its deadline fails it.
    const { syndicate } = lateWaiter(1_000);
    server = await startTurnServer([syndicate]);
    const agent = agentFor(server.api, 'late', 'thread-8');
    agent.addMessage({ id: 'u1', role: 'user', content: 'Please wait' });

    const run = await runWatched(agent);

    expect(run.errors).toEqual([expect.stringContaining('deadline')]);
    expect([...resultsOf(run.newMessages)]).toEqual([[expect.any(String), 'the turn ended failed before this call answered']]);
  });

  it('leaves no tool call of a run whose subagent asked the user without its result: the delegation is answered with the question', async () => {
    server = await startTurnServer([planningTeam()]);
    const agent = agentFor(server.api, 'team', 'thread-10');
    agent.addMessage({ id: 'u1', role: 'user', content: 'Plan the offsite' });

    const run = await runWatched(agent);

    expect(run.outcomes).toEqual(['interrupt']);
    expect([...resultsOf(run.newMessages).values()]).not.toContain(undefined);
    const delegation = run.newMessages.flatMap(toolCallsOf).find((call) => call.function.name === 'Planner')!;
    expect(resultsOf(run.newMessages).get(delegation.id)).toBe(QUESTION);
  });
});

describe('a turn whose events stop without its turn-end (its run broke outside the turn loop)', () => {
  const at = (body: TurnEventBody, delegationId?: string): TurnEvent => ({ turnId: 't1', agent: delegationId ? 'Researcher' : 'Lead', depth: delegationId ? 1 : 0, at: 0, delegationId, ...body }) as TurnEvent;
  /** The Lead delegates; its Researcher thinks, then calls a tool; nothing more comes. */
  const BROKEN = [
    at({ type: 'turn-start', syndicate: 'Team', input: 'Find it' }),
    at({ type: 'delegation-start', to: 'Researcher', request: 'Find it', callId: 'c1' }),
    at({ type: 'thinking-delta', delta: 'Let me look' }, 'c1'),
    at({ type: 'tool-call', tool: 'search', callId: 'k1', input: { q: 'it' } }, 'c1'),
  ];
  /** A fetch answering with the format's stream of those events, as the route writes it when the turn's stream stops. */
  const answering = (format: () => StreamFormat) => async (): Promise<Response> => {
    const stream = format();
    const body = BROKEN.map((event) => stream.encode({ event, seq: undefined })).join('') + stream.close();
    return new Response(body, { headers: { 'content-type': 'text/event-stream', ...stream.headers } });
  };

  it('ends the AG-UI run with RUN_ERROR, after closing the thinking, the call and the subagent it left open', async () => {
    const agent = new HttpAgent({ url: 'http://127.0.0.1:9/ag-ui', threadId: 'thread-broken', fetch: answering(() => agUiFormat({ threadId: 'thread-broken', runId: 'run-1' })) });
    agent.addMessage({ id: 'u1', role: 'user', content: 'Find it' });
    const errors: string[] = [];
    const subagentErrors: string[] = [];

    const { newMessages } = await agent.runAgent({ runId: 'run-1' }, { onRunErrorEvent: ({ event }) => void errors.push(event.message), onSubagentErrorEvent: ({ event }) => void subagentErrors.push(event.subagentRunId) });

    expect(errors).toEqual([expect.stringContaining('stopped before its end')]);
    expect(subagentErrors).toEqual(['c1']);
    expect([...resultsOf(newMessages)].sort()).toEqual([
      ['c1', 'the turn ended failed before this call answered'],
      ['k1', 'the turn ended failed before this call answered'],
    ]);
  });

  it("ends the AI SDK message failed, its thinking and tool parts ended, so the chat shows the turn's error", async () => {
    const chat = new Chat('http://127.0.0.1:9', 'team', 'chat-broken', answering(uiMessageStreamFormat));

    await chat.sendMessage({ text: 'Find it' });

    expect(chat.status).toBe('error');
    expect(chat.error?.message).toContain('stopped before its end');
    expect(chat.lastMessage).toMatchObject({ role: 'assistant', metadata: { status: 'failed' } });
    expect(chat.lastMessage!.parts.flatMap((part) => (part.type === 'dynamic-tool' ? [`${part.toolName} ${part.state}`] : part.type === 'reasoning' ? [`reasoning ${part.state}`] : []))).toEqual([
      'Researcher output-error',
      'reasoning done',
      'search output-error',
    ]);
  });
});
