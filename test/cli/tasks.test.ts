import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { declaredTask } from '../../src/scheduler/tasks/index.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { runCli, tempDir } from './cli.js';

// `syndicate tasks` as a process (the built CLI): add, list, runs and remove against one store file.

let home: { path: string; remove: () => void };
let db: string;

beforeEach(() => {
  home = tempDir('tasks');
  db = join(home.path, 'tasks.db');
});
afterEach(() => home.remove());

const cli = (args: string[]) => runCli([...args, '--db', db], { home: home.path });

describe('syndicate tasks', () => {
  it('adds a task to a syndicate, lists it, and removes it, keeping it under --all', async () => {
    const added = await cli(['tasks', 'add', 'council', '--name', 'morning-brief', '--cron', '0 8 * * 1-5', '--timezone', 'Europe/Lisbon', '--message', 'Brief me.', '--json']);
    expect(added.code).toBe(0);
    const task = JSON.parse(added.stdout) as { id: string; syndicate: string; name: string; active: boolean };
    expect(task).toMatchObject({ syndicate: 'Council', name: 'morning-brief', active: true, owner: { kind: 'user', id: 'admin' }, runAs: 'admin' });

    const listed = await cli(['tasks', 'list']);
    expect(listed.stdout).toMatch(/NAME +WHEN +FOR +STATE +NEXT FIRING +LAST FIRING/);
    // Lisbon's 08:00 is 07:00 or 08:00 UTC, whichever the season.
    expect(listed.stdout).toMatch(/morning-brief +0 8 \* \* 1-5 \(Europe\/Lisbon\) +admin +active +\d{4}-\d\d-\d\dT0[78]:00:00Z +-/);

    expect(JSON.parse((await cli(['tasks', 'remove', task.id, '--json'])).stdout)).toEqual({ id: task.id, removed: true, stoppedRun: null });
    expect(JSON.parse((await cli(['tasks', 'list', '--json'])).stdout)).toEqual([]);
    expect(JSON.parse((await cli(['tasks', 'list', '--all', '--json'])).stdout)).toMatchObject([{ id: task.id, active: false }]);
  });

  it("adds a task for --user, in a fixed session of that user's", async () => {
    expect((await cli(['users', 'add', 'alice'])).code).toBe(0);
    const added = await cli(['tasks', 'add', 'council', '--name', 'standup', '--cron', '0 9 * * *', '--message', 'Notes.', '--session', 'standup', '--user', 'alice', '--json']);

    expect(JSON.parse(added.stdout)).toMatchObject({ owner: { kind: 'user', id: 'alice' }, runAs: 'alice', session: { fixed: 'api:alice:standup' } });
  });

  it('refuses a --user the store has no user of, naming the fix', async () => {
    const result = await cli(['tasks', 'add', 'council', '--name', 'brief', '--cron', '0 8 * * *', '--message', 'Hi.', '--user', 'carol']);

    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/Cannot add the task: there is no user 'carol' in .*; add them first \(syndicate users add carol\)/);
  });

  it('refuses an invalid cron, naming the fix, and exits non-zero', async () => {
    const result = await cli(['tasks', 'add', 'council', '--name', 'bad', '--cron', '61 * * * *', '--message', 'Hi.']);

    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/Cannot add the task: '61 \* \* \* \*' is not a cron expression croner accepts: .*\(e\.g\. "0 8 \* \* 1-5"/);
  });

  it('refuses a second active task with the same name', async () => {
    await cli(['tasks', 'add', 'council', '--name', 'brief', '--cron', '0 8 * * *', '--message', 'Hi.']);
    const second = await cli(['tasks', 'add', 'council', '--name', 'brief', '--cron', '0 9 * * *', '--message', 'Hi.']);

    expect(second.stderr).toContain("Council already has an active task named 'brief': choose another name, or remove that task first");
  });

  it('refuses to remove a task its syndicate file declares, naming the file as the place to remove it', async () => {
    const store = openSqliteStore(db);
    const declared = declaredTask('Council', { name: 'filed', cron: '0 7 * * *', timezone: 'UTC', at: null, message: 'Hi.', session: null, catchUp: 'none', owner: 'admin' }, { admin: 'admin', sessionOf: (user, id) => `api:${user}:${id}` }, Date.now());
    try {
      await store.schedules.syncDeclared('Council', [declared]);
    } finally {
      await store.close();
    }

    const result = await cli(['tasks', 'remove', declared.id]);

    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Cannot remove task ${declared.id}: the task 'filed' is declared in Council's syndicate file (schedules:)`);
    expect(JSON.parse((await cli(['tasks', 'list', '--json'])).stdout)).toMatchObject([{ id: declared.id, active: true }]);
  });

  it("lists a task's runs to the second, newest first, with their status and detail", async () => {
    const task = JSON.parse((await cli(['tasks', 'add', 'council', '--name', 'pulse', '--cron', '*/2 * * * * *', '--message', 'Hi.', '--json'])).stdout) as { id: string };
    const store = openSqliteStore(db);
    try {
      await store.schedules.skip(task.id, Date.parse('2030-01-01T00:00:02Z'), 'missed while no server ran');
      await store.schedules.skip(task.id, Date.parse('2030-01-01T00:00:04Z'), 'missed again');
    } finally {
      await store.close();
    }

    const listed = await cli(['tasks', 'runs', task.id]);

    expect(listed.stdout.split('\n').slice(1, 3)).toEqual([
      expect.stringMatching(/^2030-01-01T00:00:04Z +skipped +\S+ +- +missed again$/),
      expect.stringMatching(/^2030-01-01T00:00:02Z +skipped +\S+ +- +missed while no server ran$/),
    ]);
  });

  it('lists no runs of a task that has not fired', async () => {
    const task = JSON.parse((await cli(['tasks', 'add', 'council', '--name', 'brief', '--cron', '0 8 * * *', '--message', 'Hi.', '--json'])).stdout) as { id: string };

    expect(JSON.parse((await cli(['tasks', 'runs', task.id, '--json'])).stdout)).toEqual([]);
  });
});
