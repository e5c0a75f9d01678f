import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import type { Client } from '@a2a-js/sdk/client';
import { TaskState, type Task } from '@a2a-js/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessionIdFor, type A2aTurnRequest } from '../../src/a2a/executor.js';
import type { Caller } from '../../src/a2a/caller.js';
import { agent, compile, recordCalls, type ModelCall } from '../runtime/fixtures.js';
import { clientFor, sendRequest, startServer, type TestServer } from './fixtures.js';

// A conversation belongs to the caller who started it. Another caller who learns its contextId
// (or a task id) must neither read it (its turns never reach their agent's prompt, its task is
// not found) nor continue it (nothing of theirs is appended to its session).

const SECRET = 'session-scope-test-secret';
const SECRET_PLAN = 'Alice plans to resign on Friday.';
const AGENT_ID = 'assistant';
const ALICE: Caller = { principal: 'client', userId: 'alice' };

let server: TestServer;
let calls: ModelCall[];
let requests: A2aTurnRequest[];

beforeEach(async () => {
  calls = [];
  requests = [];
  const syndicate = compile(agent('Assistant'), { resolveModel: recordCalls(calls) }, { name: 'Assistant' });
  server = await startServer(syndicate, { env: { A2A_SERVER_SECRET: SECRET }, turnOptions: (request) => (requests.push(request), {}) });
});

afterEach(() => server.stop());

/** A caller with the shared secret, as the end user `user` (none: the service itself). */
function callerAs(user?: string): Promise<Client> {
  return clientFor(server.url, 'JSONRPC', { authorization: `Bearer ${SECRET}`, ...(user === undefined ? {} : { 'x-syndicate-user': user }) });
}

async function aliceConversation(): Promise<Task> {
  return (await (await callerAs('alice')).sendMessage(sendRequest(SECRET_PLAN))) as Task;
}

async function inputsOf(sessionId: string): Promise<string[]> {
  return (await server.store.readEvents(sessionId)).flatMap(({ event }) => (event.type === 'turn-start' ? [event.input] : []));
}

/** What the model was shown on the last call, as one string. */
function lastPrompt(): string {
  return JSON.stringify(calls.at(-1)?.options.prompt);
}

describe("another caller with someone else's contextId", () => {
  it('with another user id, gets a conversation of their own that never shows the first one', async () => {
    const alice = await aliceConversation();

    await (await callerAs('mallory')).sendMessage(sendRequest('What did I tell you before?', { contextId: alice.contextId }));

    expect(lastPrompt()).not.toContain(SECRET_PLAN);
    expect(requests.map((request) => request.sessionId)).toEqual([sessionIdFor(AGENT_ID, ALICE, alice.contextId), sessionIdFor(AGENT_ID, { principal: 'client', userId: 'mallory' }, alice.contextId)]);
    expect(await inputsOf(sessionIdFor(AGENT_ID, ALICE, alice.contextId))).toEqual([SECRET_PLAN]);
  });

  it("with another user id, cannot read the conversation's task, or find it by listing the context", async () => {
    const alice = await aliceConversation();
    const mallory = await callerAs('mallory');

    await expect(mallory.getTask({ tenant: '', id: alice.id, historyLength: undefined })).rejects.toBeInstanceOf(TaskNotFoundError);
    const listed = await mallory.listTasks({ tenant: '', contextId: alice.contextId, status: TaskState.TASK_STATE_UNSPECIFIED, pageSize: 10, pageToken: '', statusTimestampAfter: undefined });
    expect(listed.tasks).toEqual([]);
  });

  it("with another user id, cannot continue the conversation's task", async () => {
    const alice = await aliceConversation();
    const mallory = await callerAs('mallory');

    await expect(mallory.sendMessage(sendRequest('Continue, please.', { taskId: alice.id, contextId: alice.contextId }))).rejects.toBeInstanceOf(TaskNotFoundError);
    expect(await inputsOf(sessionIdFor(AGENT_ID, ALICE, alice.contextId))).toEqual([SECRET_PLAN]);
  });

  // The session id is `a2a:<agent>:<owner>:<contextId>`: unescaped, the service (owner "client")
  // sending "alice:<contextId>" would name alice's session.
  it('without a user id, cannot reach a user\'s conversation by putting "<user id>:" before its contextId', async () => {
    const alice = await aliceConversation();

    await (await callerAs()).sendMessage(sendRequest('What did I tell you before?', { contextId: `alice:${alice.contextId}` }));

    expect(lastPrompt()).not.toContain(SECRET_PLAN);
    expect(await inputsOf(sessionIdFor(AGENT_ID, ALICE, alice.contextId))).toEqual([SECRET_PLAN]);
  });
});

describe('the session id of a context', () => {
  it('is distinct for every contextId, whatever the ids hold', () => {
    const service: Caller = { principal: 'client', userId: undefined };
    const contexts = ['alice:ctx', 'alice%3Actx', 'alice%253Actx', 'ctx'];

    const ids = contexts.map((contextId) => sessionIdFor(AGENT_ID, service, contextId));

    expect(new Set(ids).size).toBe(contexts.length);
    expect(ids).not.toContain(sessionIdFor(AGENT_ID, ALICE, 'ctx'));
  });
});

describe("another caller's long-term memory silo", () => {
  // A request without a user id uses its principal's silo ("client"; "local" is the CLI's own).
  it.each(['client', 'local'])('is never reached by naming the user "%s", which is refused', async (user) => {
    const service = await callerAs(user);

    const refused = service.sendMessage(sendRequest('hello'));

    await expect(refused).rejects.toThrow(/reserved/);
    expect(requests).toEqual([]);
  });
});
