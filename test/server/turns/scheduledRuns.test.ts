import { afterEach, describe, expect, it } from 'vitest';
import { runSessionId } from '../../../src/scheduler/tasks/index.js';
import type { ScheduledTask } from '../../../src/store/schedules.js';
import { auth, readAll, startTurnServer, type TurnServer } from './harness.js';
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

function aliceTask(): ScheduledTask {
  return {
    id: 'task-1', syndicate: 'Council', name: 'brief', cron: '0 8 * * *', timezone: 'UTC', at: null, message: 'Hire a designer?', session: 'new',
    owner: { kind: 'user', id: 'alice' }, runAs: 'alice', requestedBy: null, origin: 'runtime', active: true, catchUp: 'none', createdAt: 0, lastScheduledFor: null,
  };
}

async function runOnce(): Promise<string> {
  const task = aliceTask();
  const sessionId = runSessionId(task, SCHEDULED_FOR);
  const end = await server!.turns.runScheduled({ task, sessionId, message: task.message, signal: new AbortController().signal });
  expect(end.status).toBe('completed');
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
});
