import { afterEach, describe, expect, it } from 'vitest';
import { runSessionId } from '../../../src/scheduler/tasks/index.js';
import type { ScheduledTask } from '../../../src/store/schedules.js';
import { agent } from '../../runtime/fixtures.js';
import { auth, readAll, served, startTurnServer, type TurnServer } from './harness.js';
import { council } from './fixtures.js';

// A scheduled task's run through the server's turns (what serve's scheduler calls): it runs in a
// session of its owner's, which the owner streams like their own conversations and another member
// cannot.

let server: TurnServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const SCHEDULED_FOR = Date.parse('2026-12-02T08:00:00Z');

function aliceTask(syndicate = 'Council'): ScheduledTask {
  return {
    id: 'task-1', syndicate, name: 'brief', cron: '0 8 * * *', timezone: 'UTC', at: null, message: 'Hire a designer?', session: 'new',
    owner: { kind: 'user', id: 'alice' }, runAs: 'alice', requestedBy: null, origin: 'runtime', active: true, catchUp: 'none', createdAt: 0, lastScheduledFor: null,
  };
}

/** A Planner that, asked to plan, schedules a follow-up, lists its tasks, and answers once it sees the follow-up listed. */
function planner() {
  const root = agent('Planner', {
    tools: ['schedule_task', 'list_tasks'],
    script: [
      { match: 'plan the week', tool_calls: [{ tool: 'schedule_task', args: { name: 'follow-up', cron: '0 9 * * 1', message: 'Follow up on the plan.' } }] },
      { regex: '"tasks":\\[.*"follow-up"', reply: 'Scheduled the follow-up.' },
      { match: '"task_id"', tool_calls: [{ tool: 'list_tasks', args: {} }] },
    ],
  });
  return served(root, {}, { name: 'Planning' });
}

async function runOnce(task = aliceTask()): Promise<string> {
  const sessionId = runSessionId(task, SCHEDULED_FOR);
  const end = await server!.turns.runScheduled({ task, sessionId, message: task.message, signal: new AbortController().signal });
  expect(end).toMatchObject({ status: 'completed' });
  return sessionId;
}

const stream = (sessionId: string, token: string) => fetch(`${server!.api}/sessions/${encodeURIComponent(sessionId)}/stream`, { headers: auth(token) });

describe('a scheduled run', () => {
  it("runs in a session of the owner's, which the owner streams", async () => {
    server = await startTurnServer([council()]);
    const sessionId = await runOnce();

    const response = await stream(sessionId, 'alice-token');

    expect(sessionId.startsWith('task:alice:')).toBe(true);
    expect(response.status).toBe(200);
    expect((await readAll(response)).at(-1)?.data).toMatchObject({ type: 'turn-end', status: 'completed' });
  });

  it("is another member's 404", async () => {
    server = await startTurnServer([council()]);
    const sessionId = await runOnce();

    expect((await stream(sessionId, 'bob-token')).status).toBe(404);
    expect((await fetch(`${server.api}/sessions/${encodeURIComponent(sessionId)}/cancel`, { method: 'POST', headers: auth('bob-token') })).status).toBe(404);
  });

  it("lets its agent schedule and list tasks as the task's owner", async () => {
    server = await startTurnServer([planner()]);
    const task = { ...aliceTask('Planning'), message: 'Plan the week.' };

    const sessionId = await runOnce(task);

    const [followUp] = (await (await server.platform.store()).schedules.list(['Planning'])).filter((added) => added.name === 'follow-up');
    expect(followUp).toMatchObject({ runAs: 'alice', owner: { kind: 'agent', id: 'Planner' }, requestedBy: sessionId });
    const events = await (await server.platform.store()).readEvents(sessionId);
    expect(events.at(-1)?.event).toMatchObject({ type: 'turn-end', output: 'Scheduled the follow-up.' });
  });
});
