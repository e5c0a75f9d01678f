import { TaskState, type Task } from '@a2a-js/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { agent, compile } from '../runtime/fixtures.js';
import { clientFor, sendRequest, startServer, textOf, type TestServer } from './fixtures.js';

// Cancelling a task that waits for the caller's answer withdraws its question: the conversation's
// next message is a new request, routed like any other, not the answer. (A remote agent's question
// is covered in client/withdrawQuestion.test.ts.)

let server: TestServer | undefined;

afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** Plan-dispatch: offsites go to a Planner that asks which city; everything else to General. */
function offsiteDesk() {
  const planner = agent('Planner', {
    description: 'Plans offsites and team events.',
    tools: ['ask_user'],
    script: [{ match: 'offsite', tool_calls: [{ tool: 'ask_user', args: { question: 'Which city should the offsite be in?' } }] }, { reply: 'Lisbon it is.' }],
  });
  return compile(agent('Desk', { subagents: [agent('General', { description: 'Answers everything else.' }), planner], dispatch: { default_route: 'General' } }), {}, { name: 'Desk' });
}

describe('cancelling a task that waits for input', () => {
  it('has the next message in a dispatch syndicate routed by the classifier, not back to the route that asked', async () => {
    server = await startServer(offsiteDesk());
    const client = await clientFor(server.url, 'JSONRPC');
    const asked = (await client.sendMessage(sendRequest('Please plan an offsite'))) as Task;
    await client.cancelTask({ tenant: '', id: asked.id, metadata: undefined });

    const next = (await client.sendMessage(sendRequest('Lisbon', { contextId: asked.contextId }))) as Task;

    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(next.history.map((message) => textOf(message.parts))).toContain('Routed to General — no word overlap with any route; defaulting to General');
  });
});
