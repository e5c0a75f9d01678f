import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TurnEvent } from '../../src/core/events.js';
import { newRunSessionId } from '../../src/scheduler/tasks/taskSessions.js';
import type { Store } from '../../src/store/store.js';
import { startTestServer, type TestServer } from './serverFixture.js';

// The sessions API over real HTTP and a real SQLite store: a member sees only their own sessions
// (another's is a 404), an admin everyone's.

let t: TestServer;
let store: Store;

function message(text: string): TurnEvent {
  return { type: 'message', text, turnId: 'turn-1', agent: 'Moderator', at: 1_700_000_000_000, depth: 0 };
}

async function sessionWith(id: string, count: number, syndicate = 'Council'): Promise<string> {
  await store.openSession(id, syndicate);
  await store.appendEvents(id, Array.from({ length: count }, (_, index) => message(`m${index + 1}`)));
  return id;
}

const path = (id: string) => `/sessions/${encodeURIComponent(id)}`;

beforeAll(async () => {
  t = await startTestServer(['council.yaml']);
  store = await t.platform.store();
  await sessionWith('api:alice:one', 3);
  await sessionWith('api:alice:two', 1, 'Support Triage');
  await sessionWith('api:bob:one', 2);
  await store.openSession('api:carol:one', 'Council');
  await store.appendEvents('api:carol:one', [{ type: 'turn-start', syndicate: 'Council', input: 'Should we hire a designer?', turnId: 'turn-1', agent: 'Moderator', at: 1_700_000_000_000, depth: 0 }, message('m1')]);
});

afterAll(async () => {
  await t.server.close({ graceMs: 0 });
});

type Listed = { sessions: Array<{ id: string; eventCount: number }>; nextCursor: string | null };

describe('GET /sessions', () => {
  it("lists only the caller's own sessions", async () => {
    const body = (await (await t.api('/sessions')).json()) as Listed;
    expect(body.sessions.map((s) => s.id).sort()).toStrictEqual(['api:alice:one', 'api:alice:two']);
  });

  it("refuses a member's filter by another user with a 403 saying only admins filter by other users", async () => {
    const response = await t.api('/sessions?user=bob');

    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(((await response.json()) as { detail: string }).detail).toContain("only admins list another user's sessions");
  });

  it('answers a filter by a user who does not exist exactly as one by a user who does', async () => {
    const existing = (await (await t.api('/sessions?user=bob')).json()) as { detail: string };
    const missing = (await (await t.api('/sessions?user=nobody-at-all')).json()) as { detail: string };

    expect(missing).toStrictEqual(existing);
  });

  it("refuses a viewer's filter by another user too", async () => {
    expect((await t.api('/sessions?user=alice', { key: 'vera-key' })).status).toBe(403);
  });

  it('lets a member filter by their own user id', async () => {
    const body = (await (await t.api('/sessions?user=alice')).json()) as Listed;
    expect(body.sessions.map((s) => s.id).sort()).toStrictEqual(['api:alice:one', 'api:alice:two']);
  });

  it("lets an admin list one user's sessions", async () => {
    const body = (await (await t.api('/sessions?user=bob', { key: 'admin-key' })).json()) as Listed;
    expect(body.sessions.map((s) => s.id)).toStrictEqual(['api:bob:one']);
  });

  it('names each session by its first message, and a session without one by null', async () => {
    const listed = (await (await t.api('/sessions', { key: 'admin-key' })).json()) as { sessions: Array<{ id: string; title: string | null }> };

    expect(listed.sessions.find((session) => session.id === 'api:carol:one')?.title).toBe('Should we hire a designer?');
    expect(listed.sessions.find((session) => session.id === 'api:bob:one')?.title).toBeNull();
  });

  it('finds the sessions whose title or id contains q, ignoring case', async () => {
    const byTitle = (await (await t.api('/sessions?q=HIRE%20a', { key: 'admin-key' })).json()) as Listed;
    const byId = (await (await t.api('/sessions?q=ALICE:T', { key: 'admin-key' })).json()) as Listed;

    expect(byTitle.sessions.map((s) => s.id)).toStrictEqual(['api:carol:one']);
    expect(byId.sessions.map((s) => s.id)).toStrictEqual(['api:alice:two']);
  });

  it("searches only the caller's own sessions", async () => {
    const body = (await (await t.api('/sessions?q=one')).json()) as Listed;

    expect(body.sessions.map((s) => s.id)).toStrictEqual(['api:alice:one']);
  });

  it('refuses a q over 200 characters, naming the field', async () => {
    const response = await t.api(`/sessions?q=${'x'.repeat(201)}`);

    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(((await response.json()) as { errors: Array<{ pointer: string }> }).errors[0]!.pointer).toBe('#/query/q');
  });

  it('describes q in the OpenAPI document', async () => {
    const document = (await (await t.api('/openapi.json')).json()) as { paths: Record<string, { get: { parameters: Array<{ name: string; in: string; schema: { maxLength?: number } }> } }> };

    expect(document.paths['/sessions']!.get.parameters.find((parameter) => parameter.name === 'q')).toMatchObject({ in: 'query', schema: { maxLength: 200 } });
  });

  it('says in the OpenAPI document that only admins filter by other users', async () => {
    const document = (await (await t.api('/openapi.json')).json()) as { paths: Record<string, { get: { parameters: Array<{ name: string; description?: string }> } }> };

    expect(document.paths['/sessions']!.get.parameters.find((parameter) => parameter.name === 'user')?.description).toContain('Only admins filter by other users');
  });

  it('filters by syndicate id', async () => {
    const body = (await (await t.api('/sessions?syndicate=council')).json()) as Listed;
    expect(body.sessions.map((s) => s.id)).toStrictEqual(['api:alice:one']);
  });

  it('pages with the cursor it gives out', async () => {
    const first = (await (await t.api('/sessions?limit=1')).json()) as Listed;
    expect(first.sessions).toHaveLength(1);
    expect(first.nextCursor).not.toBeNull();
    const second = (await (await t.api(`/sessions?limit=1&cursor=${first.nextCursor}`)).json()) as Listed;
    expect(second.sessions).toHaveLength(1);
    expect(second.nextCursor).toBeNull();
    expect([first.sessions[0]!.id, second.sessions[0]!.id].sort()).toStrictEqual(['api:alice:one', 'api:alice:two']);
  });

  it('refuses a cursor it did not give out, naming the field', async () => {
    const response = await t.api('/sessions?cursor=garbage');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: Array<{ pointer: string }> }).errors[0]!.pointer).toBe('#/query/cursor');
  });
});

describe('GET /sessions/:id and its events', () => {
  it('answers an own session', async () => {
    const body = (await (await t.api(path('api:alice:one'))).json()) as { session: { id: string; eventCount: number; syndicate: string } };
    expect(body.session).toMatchObject({ id: 'api:alice:one', eventCount: 3, syndicate: 'Council' });
  });

  it('answers a session with its title and how its last turn ended', async () => {
    await store.openSession('api:carol:ended', 'Council');
    await store.appendEvents('api:carol:ended', [
      { type: 'turn-start', syndicate: 'Council', input: 'Plan the offsite', turnId: 'turn-1', agent: 'Moderator', at: 1_700_000_000_000, depth: 0 },
      { type: 'turn-end', status: 'failed', output: '', error: 'the model failed', turnId: 'turn-1', agent: 'Moderator', at: 1_700_000_000_000, depth: 0 },
    ]);
    const endedAt = (await store.getSession('api:carol:ended'))!.updatedAt;

    const body = (await (await t.api(path('api:carol:ended'), { key: 'admin-key' })).json()) as { session: { title: string | null; lastTurn: { outcome: string; endedAt: number } | null } };

    expect(body.session).toMatchObject({ title: 'Plan the offsite', lastTurn: { outcome: 'failed', endedAt } });
  });

  it('answers a session no turn has ended in with a null last turn', async () => {
    const body = (await (await t.api(path('api:alice:one'))).json()) as { session: { lastTurn: unknown } };

    expect(body.session.lastTurn).toBeNull();
  });

  it('describes the last turn of one session in the OpenAPI document', async () => {
    type Document = { paths: Record<string, { get: { responses: Record<string, { content: Record<string, { schema: unknown }> }> } }> };
    const document = (await (await t.api('/openapi.json')).json()) as Document;

    expect(JSON.stringify(document.paths['/sessions/{id}']!.get.responses['200']!.content['application/json']!.schema)).toContain('"lastTurn"');
  });

  it("answers another user's session as missing (404, not 403)", async () => {
    expect((await t.api(path('api:bob:one'))).status).toBe(404);
    expect((await t.api(`${path('api:bob:one')}/events`)).status).toBe(404);
  });

  it('gives the stored events in order after a seq', async () => {
    const body = (await (await t.api(`${path('api:alice:one')}/events?after=1`)).json()) as { events: Array<{ seq: number; event: { text: string } }> };
    expect(body.events.map((entry) => [entry.seq, entry.event.text])).toStrictEqual([
      [2, 'm2'],
      [3, 'm3'],
    ]);
  });
});

describe('the sessions of scheduled task runs', () => {
  const alices = newRunSessionId('alice', 'task-1', Date.parse('2026-12-02T08:00:00Z'));
  const bobs = newRunSessionId('bob', 'task-2', Date.parse('2026-12-02T08:00:00Z'));
  beforeAll(async () => {
    await sessionWith(alices, 2);
    await sessionWith(bobs, 1);
  });

  it("lists a member's task runs among their sessions, and not another member's", async () => {
    const ids = ((await (await t.api('/sessions')).json()) as Listed).sessions.map((s) => s.id);

    expect(ids).toContain(alices);
    expect(ids).toContain('api:alice:one');
    expect(ids).not.toContain(bobs);
  });

  it('pages through conversations and task runs together, each once', async () => {
    const all = ((await (await t.api('/sessions')).json()) as Listed).sessions.map((s) => s.id);
    const paged: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page = (await (await t.api(`/sessions?limit=1${cursor === '' ? '' : `&cursor=${cursor}`}`)).json()) as Listed;
      paged.push(...page.sessions.map((s) => s.id));
      cursor = page.nextCursor;
    }

    expect(paged).toStrictEqual(all);
  });

  it("answers the owner's task run session and its events", async () => {
    expect((await (await t.api(path(alices))).json()) as { session: { id: string } }).toMatchObject({ session: { id: alices, eventCount: 2 } });
    expect((await t.api(`${path(alices)}/events`)).status).toBe(200);
  });

  it("answers another member's task run session as missing (404)", async () => {
    expect((await t.api(path(bobs))).status).toBe(404);
    expect((await t.api(path(alices), { key: 'bob-key' })).status).toBe(404);
    expect((await t.api(path(bobs), { method: 'DELETE' })).status).toBe(404);
  });

  it("lets an admin list one user's task runs with their conversations", async () => {
    const ids = ((await (await t.api('/sessions?user=bob', { key: 'admin-key' })).json()) as Listed).sessions.map((s) => s.id);

    expect(ids.sort()).toStrictEqual(['api:bob:one', bobs]);
  });
});

describe('POST /sessions/:id/fork', () => {
  it("creates a new session of the caller's holding events 1..atSeq", async () => {
    const response = await t.api(`${path('api:alice:one')}/fork`, { method: 'POST', body: JSON.stringify({ atSeq: 2 }) });
    expect(response.status).toBe(201);
    const { session } = (await response.json()) as { session: { id: string; eventCount: number; syndicate: string } };
    expect(session.id.startsWith('api:alice:')).toBe(true);
    expect(session).toMatchObject({ eventCount: 2, syndicate: 'Council' });
    expect((await store.readEvents(session.id)).map((entry) => (entry.event as { text: string }).text)).toStrictEqual(['m1', 'm2']);
  });

  it('forks a session of 20,000 events near its end, whole and in order', async () => {
    await sessionWith('api:alice:long', 20_000);
    const response = await t.api(`${path('api:alice:long')}/fork`, { method: 'POST', body: JSON.stringify({ atSeq: 19_999 }) });
    expect(response.status).toBe(201);
    const { session } = (await response.json()) as { session: { id: string; eventCount: number } };
    expect(session.eventCount).toBe(19_999);
    const forked = await store.readEvents(session.id);
    expect(forked.map((entry) => entry.seq)).toStrictEqual(Array.from({ length: 19_999 }, (_, index) => index + 1));
    expect(forked.map((entry) => (entry.event as { text: string }).text)).toStrictEqual(Array.from({ length: 19_999 }, (_, index) => `m${index + 1}`));
  });

  it("titles the fork by its source's first message", async () => {
    const response = await t.api(`${path('api:carol:one')}/fork`, { method: 'POST', key: 'admin-key', body: JSON.stringify({ atSeq: 1 }) });
    const { session } = (await response.json()) as { session: { id: string } };

    const listed = (await (await t.api('/sessions', { key: 'admin-key' })).json()) as { sessions: Array<{ id: string; title: string | null }> };
    expect(listed.sessions.find((entry) => entry.id === session.id)?.title).toBe('Should we hire a designer?');
  });

  it('answers the fork with how the last turn it copied ended', async () => {
    await store.openSession('api:alice:cancelled', 'Council');
    await store.appendEvents('api:alice:cancelled', [
      { type: 'turn-start', syndicate: 'Council', input: 'Book the venue', turnId: 'turn-1', agent: 'Moderator', at: 1_700_000_000_000, depth: 0 },
      { type: 'turn-end', status: 'cancelled', output: '', turnId: 'turn-1', agent: 'Moderator', at: 1_700_000_000_000, depth: 0 },
    ]);

    const response = await t.api(`${path('api:alice:cancelled')}/fork`, { method: 'POST', body: JSON.stringify({ atSeq: 2 }) });

    expect(((await response.json()) as { session: { lastTurn: { outcome: string } | null } }).session.lastTurn?.outcome).toBe('cancelled');
  });

  it('refuses a seq past the last event and stores nothing', async () => {
    const before = (await store.listSessions({ idPrefix: 'api:alice:' })).length;
    const response = await t.api(`${path('api:alice:one')}/fork`, { method: 'POST', body: JSON.stringify({ atSeq: 9 }) });
    expect(response.status).toBe(422);
    expect((await store.listSessions({ idPrefix: 'api:alice:' })).length).toBe(before);
  });

  it('forbids a viewer to fork', async () => {
    const response = await t.api(`${path('api:alice:one')}/fork`, { method: 'POST', key: 'vera-key', body: JSON.stringify({ atSeq: 1 }) });
    expect(response.status).toBe(403);
  });
});

describe('DELETE /sessions/:id', () => {
  it("leaves another user's session alone, answering 404", async () => {
    expect((await t.api(path('api:bob:one'), { method: 'DELETE' })).status).toBe(404);
    expect(await store.getSession('api:bob:one')).toBeDefined();
  });

  it('deletes an own session', async () => {
    const id = await sessionWith('api:alice:doomed', 1);
    expect((await t.api(path(id), { method: 'DELETE' })).status).toBe(204);
    expect(await store.getSession(id)).toBeUndefined();
  });
});
