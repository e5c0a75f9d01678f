import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredTask } from '../../src/scheduler/tasks/index.js';
import { startTestServer, type TestServer } from './serverFixture.js';

// The scheduled-tasks API over real HTTP and a real SQLite store: a member creates tasks for
// themselves, sees only theirs (another's is a 404), and refusals are 422 problems naming the fix.

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer(['council.yaml']);
});
afterAll(async () => {
  await t.server.close({ graceMs: 0 });
});

const post = (body: unknown, key?: string) => t.api('/tasks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), ...(key ? { key } : {}) });

describe('/tasks', () => {
  it('creates a task for the caller, who is its owner, in a fixed session of theirs', async () => {
    const response = await post({ syndicate: 'council', name: 'brief', cron: '0 8 * * 1-5', timezone: 'Europe/Lisbon', message: 'Brief me.', session: 'morning' });

    expect(response.status).toBe(201);
    const { task } = (await response.json()) as { task: { id: string; owner: unknown; runAs: string; session: unknown; syndicate: string } };
    expect(task).toMatchObject({ syndicate: 'Council', owner: { kind: 'user', id: 'alice' }, runAs: 'alice', session: { fixed: 'api:alice:morning' } });
    expect(((await (await t.api('/tasks')).json()) as { tasks: Array<{ id: string }> }).tasks.map((listed) => listed.id)).toContain(task.id);
  });

  it("hides a task from another member: listing leaves it out, and its runs and delete are 404s", async () => {
    const { task } = (await (await post({ syndicate: 'council', name: 'private', cron: '0 9 * * *', message: 'Hi.' })).json()) as { task: { id: string } };

    const listed = (await (await t.api('/tasks', { key: 'bob-key' })).json()) as { tasks: Array<{ id: string }> };
    expect(listed.tasks.map((other) => other.id)).not.toContain(task.id);
    expect((await t.api(`/tasks/${task.id}/runs`, { key: 'bob-key' })).status).toBe(404);
    expect((await t.api(`/tasks/${task.id}`, { method: 'DELETE', key: 'bob-key' })).status).toBe(404);
    expect((await t.api(`/tasks/${task.id}/runs`)).status).toBe(200);
  });

  it('removes a task, keeping its runs readable', async () => {
    const { task } = (await (await post({ syndicate: 'council', name: 'gone', cron: '0 9 * * *', message: 'Hi.' })).json()) as { task: { id: string } };

    expect((await t.api(`/tasks/${task.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await (await t.api(`/tasks/${task.id}/runs`)).json()).toEqual({ runs: [] });
    expect((await t.api(`/tasks/${task.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it("refuses to remove a task its syndicate file declares with a 409 naming the file as the place to remove it, and keeps it active", async () => {
    const schedules = (await t.platform.store()).schedules;
    const declared = declaredTask('Council', { name: 'filed', cron: '0 7 * * *', timezone: 'UTC', at: null, message: 'Hi.', session: null, catchUp: 'none', owner: 'admin' }, { admin: 'admin', sessionOf: (user, id) => `api:${user}:${id}` }, Date.now());
    await schedules.syncDeclared('Council', [declared]);

    const refused = await t.api(`/tasks/${encodeURIComponent(declared.id)}`, { method: 'DELETE', key: 'admin-key' });

    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { detail: string }).detail).toContain("the task 'filed' is declared in Council's syndicate file (schedules:)");
    expect((await schedules.get(declared.id))?.active).toBe(true);
  });

  it('refuses an invalid cron, an unknown time zone and an unknown syndicate with 422s naming the fix', async () => {
    const cron = (await (await post({ syndicate: 'council', name: 'bad', cron: '61 * * * *', message: 'Hi.' })).json()) as { detail: string };
    const zone = (await (await post({ syndicate: 'council', name: 'bad', cron: '0 8 * * *', timezone: 'Mars/Olympus', message: 'Hi.' })).json()) as { detail: string };
    const unknown = await post({ syndicate: 'nowhere', name: 'bad', cron: '0 8 * * *', message: 'Hi.' });

    expect(cron.detail).toMatch(/is not a cron expression croner accepts: .*\(e\.g\. "0 8 \* \* 1-5"/);
    expect(zone.detail).toBe("'Mars/Olympus' is not an IANA time zone: use e.g. Europe/Lisbon or UTC");
    expect(unknown.status).toBe(422);
    expect(((await unknown.json()) as { detail: string }).detail).toBe("there is no syndicate 'nowhere' here: name one of Council");
  });
});
