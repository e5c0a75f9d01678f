import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defineAgent } from '../../src/config/define.js';
import type { AnyTool } from '../../src/core/tool.js';
import type { CompiledSyndicate } from '../../src/runtime/compileSyndicate.js';
import { createTaskTools, declaredTask } from '../../src/scheduler/tasks/index.js';
import { MAX_ACTIVE_TASKS } from '../../src/store/schedules.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import type { Store } from '../../src/store/store.js';
import { collect, compile, ofType } from '../runtime/fixtures.js';
import { scratchDir } from '../support/scratchDir.js';

// The agent tools of scheduled tasks on a real SQLite store: what an agent schedules runs for the
// user of its conversation, and it sees and cancels only that user's tasks.

const NOW = Date.parse('2026-12-02T08:00:00Z');
const SESSION = 'api:alice:chat-1';

let store: Store;
let syndicate: CompiledSyndicate;

beforeEach(async () => {
  store = await openSqliteStore(join(scratchDir('task-tools'), 'tasks.db'));
  syndicate = compile(defineAgent('Boss', { model: 'scripted', file: 'test.yaml' }), {}, { name: 'team' });
});
afterEach(async () => {
  await store.close();
});

function toolsFor(user: string | undefined, sessionId: string | undefined = SESSION): ReadonlyMap<string, AnyTool> {
  return createTaskTools({ syndicate, sessionId, agent: syndicate.root }, { schedules: store.schedules, user, now: () => NOW });
}

function call(tools: ReadonlyMap<string, AnyTool>, name: string, input: unknown): Promise<unknown> {
  return Promise.resolve(tools.get(name)!.execute(input, { agent: 'Boss', turnId: 't', sessionId: SESSION, signal: new AbortController().signal }));
}

describe('the scheduled-task tools', () => {
  it('schedule_task adds a task that runs for the user of the conversation, asked by the agent from it', async () => {
    const added = (await call(toolsFor('alice'), 'schedule_task', { name: 'brief', cron: '0 8 * * 1-5', message: 'Brief me.' })) as { task_id: string };

    const task = await store.schedules.get(added.task_id);
    expect(task).toMatchObject({ syndicate: 'team', name: 'brief', runAs: 'alice', owner: { kind: 'agent', id: 'Boss' }, requestedBy: SESSION, session: 'new', active: true });
  });

  it('schedule_task with session "this" runs every firing in this conversation', async () => {
    const added = (await call(toolsFor('alice'), 'schedule_task', { name: 'nudge', at: '2026-12-03T09:00:00Z', message: 'Nudge me.', session: 'this' })) as { task_id: string };

    expect((await store.schedules.get(added.task_id))?.session).toEqual({ fixed: SESSION });
  });

  it('refuses an invalid cron, an unknown time zone and a past instant as error results the model reads, each naming the fix, and stores nothing', async () => {
    const asking = compile(
      defineAgent('Boss', {
        model: 'scripted',
        file: 'test.yaml',
        tools: ['schedule_task'],
        script: [
          {
            match: 'schedule',
            tool_calls: [
              { tool: 'schedule_task', args: { name: 'bad-cron', cron: 'every morning', message: 'Hi' } },
              { tool: 'schedule_task', args: { name: 'bad-zone', cron: '0 8 * * *', timezone: 'Mars/Olympus', message: 'Hi' } },
              { tool: 'schedule_task', args: { name: 'past', at: '2020-01-01T00:00:00Z', message: 'Hi' } },
            ],
          },
          { reply: 'I could not schedule it.' },
        ],
      }),
      {},
      { name: 'team' },
    );

    const events = await collect(asking, { input: 'schedule my briefs', sessionId: SESSION, store, background: { tools: (run) => createTaskTools(run, { schedules: store.schedules, user: 'alice', now: () => NOW }) } });

    const results = ofType(events, 'tool-result');
    expect(results.map((result) => result.isError)).toEqual([true, true, true]);
    expect(results.map((result) => result.output)).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`'every morning' is not a cron expression croner accepts`),
        expect.stringContaining(`(e.g. "0 8 * * 1-5" for 08:00 on weekdays`),
        expect.stringContaining("'Mars/Olympus' is not an IANA time zone: use e.g. Europe/Lisbon or UTC"),
        expect.stringContaining('2020-01-01T00:00:00Z is in the past: give a later instant, or a cron pattern for a recurring task'),
      ]),
    );
    expect(await store.schedules.list(['team'])).toEqual([]);
  });

  it(`refuses a task beyond the syndicate's ${MAX_ACTIVE_TASKS} active ones, saying to remove one first`, async () => {
    const tools = toolsFor('alice');
    for (let i = 0; i < MAX_ACTIVE_TASKS; i++) await call(tools, 'schedule_task', { name: `t${i}`, cron: '0 8 * * *', message: 'Hi' });

    await expect(call(tools, 'schedule_task', { name: 'one-too-many', cron: '0 8 * * *', message: 'Hi' })).rejects.toThrow(
      `team has ${MAX_ACTIVE_TASKS} active tasks, the most a syndicate may have: remove one before adding another`,
    );
    expect(await store.schedules.list(['team'])).toHaveLength(MAX_ACTIVE_TASKS);
  });

  it('refuses to cancel a task the syndicate file declares, naming the file as the place to remove it', async () => {
    const declared = declaredTask('team', { name: 'filed', cron: '0 7 * * *', timezone: 'UTC', at: null, message: 'Hi.', session: null, catchUp: 'none', owner: 'alice' }, { admin: 'admin', sessionOf: (user, id) => `api:${user}:${id}` }, NOW);
    await store.schedules.syncDeclared('team', [declared]);

    await expect(call(toolsFor('alice'), 'cancel_task', { task_id: declared.id })).rejects.toThrow("the task 'filed' is declared in team's syndicate file (schedules:)");
    expect((await store.schedules.get(declared.id))?.active).toBe(true);
  });

  it('refuses to schedule from a run that is nobody’s conversation', async () => {
    await expect(call(toolsFor(undefined, 'bg:job-1:0'), 'schedule_task', { name: 'loop', cron: '* * * * *', message: 'Again' })).rejects.toThrow(/user's conversation/);
  });

  it("lists only the user's own tasks, and treats another user's task as unknown", async () => {
    const mine = (await call(toolsFor('alice'), 'schedule_task', { name: 'mine', cron: '0 9 * * *', message: 'Mine' })) as { task_id: string };
    const theirs = (await call(toolsFor('bob', 'api:bob:chat-2'), 'schedule_task', { name: 'theirs', cron: '0 9 * * *', message: 'Theirs' })) as { task_id: string };

    const listed = (await call(toolsFor('alice'), 'list_tasks', {})) as { tasks: Array<{ task_id: string }> };

    expect(listed.tasks.map((task) => task.task_id)).toEqual([mine.task_id]);
    await expect(call(toolsFor('alice'), 'cancel_task', { task_id: theirs.task_id })).rejects.toThrow(/no task .* of yours/);
    expect((await store.schedules.get(theirs.task_id))?.active).toBe(true);
  });

  it('cancel_task deactivates the task, keeping it readable', async () => {
    const added = (await call(toolsFor('alice'), 'schedule_task', { name: 'brief', cron: '0 8 * * *', message: 'Brief me.' })) as { task_id: string };

    expect(await call(toolsFor('alice'), 'cancel_task', { task_id: added.task_id })).toEqual({ task_id: added.task_id, cancelled: true, stopped_run: null });
    expect((await store.schedules.get(added.task_id))?.active).toBe(false);
  });

  it("cancel_task stops the task's run in flight, recorded interrupted, but not the run that asks", async () => {
    const added = (await call(toolsFor('alice'), 'schedule_task', { name: 'brief', cron: '0 8 * * *', message: 'Brief me.' })) as { task_id: string };
    const firing = (scheduledFor: number, sessionId: string) => ({ taskId: added.task_id, scheduledFor, runner: 'runner-a', now: NOW, leaseMs: 60_000, sessionId });
    const own = await store.schedules.claim(firing(NOW + 1, 'task:alice:own-run'));

    expect(await call(toolsFor('alice', 'task:alice:own-run'), 'cancel_task', { task_id: added.task_id })).toEqual({ task_id: added.task_id, cancelled: true, stopped_run: null });
    expect(own.outcome === 'claimed' && (await store.schedules.getRun(own.run.id))?.status).toBe('running');

    const second = (await call(toolsFor('alice'), 'schedule_task', { name: 'brief', cron: '0 9 * * *', message: 'Brief me.' })) as { task_id: string };
    const running = await store.schedules.claim({ ...firing(NOW + 1, 'task:alice:other-run'), taskId: second.task_id });
    const runId = running.outcome === 'claimed' ? running.run.id : '';

    expect(await call(toolsFor('alice'), 'cancel_task', { task_id: second.task_id })).toEqual({ task_id: second.task_id, cancelled: true, stopped_run: runId });
    expect(await store.schedules.getRun(runId)).toMatchObject({ status: 'interrupted', detail: "cancelled: its task 'brief' was removed by the agent Boss while the run was going" });
  });

  it("list_task_runs and get_task_run show a task's runs with their status", async () => {
    const added = (await call(toolsFor('alice'), 'schedule_task', { name: 'brief', cron: '0 8 * * *', message: 'Brief me.' })) as { task_id: string };
    const skipped = await store.schedules.skip(added.task_id, NOW + 60_000, 'missed while no server ran');
    if (!('run' in skipped)) throw new Error(`the firing was not recorded: ${skipped.outcome}`);
    const runId = skipped.run.id;

    const runs = (await call(toolsFor('alice'), 'list_task_runs', { task_id: added.task_id })) as { runs: Array<{ run_id: string; status: string }> };
    const one = (await call(toolsFor('alice'), 'get_task_run', { run_id: runId })) as { status: string; detail: string };

    expect(runs.runs).toEqual([expect.objectContaining({ run_id: runId, status: 'skipped' })]);
    expect(one).toMatchObject({ status: 'skipped', detail: 'missed while no server ran' });
  });
});
