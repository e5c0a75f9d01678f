import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSchedules } from '../../src/cli/serveSchedules.js';
import { createPlatform, type Platform } from '../../src/platform/createPlatform.js';
import type { TaskScheduler } from '../../src/scheduler/tasks/index.js';
import { loadSyndicates, type WatchedSyndicateRegistry } from '../../src/server/app/syndicateRegistry.js';
import type { ScheduledTask } from '../../src/store/schedules.js';
import { idleTurns } from '../server/serverFixture.js';
import { scratchDir } from '../support/scratchDir.js';
import { eventually } from './jobsFixtures.js';

// serve's tasks from a syndicate file over a real SQLite store and the real registry: whose they
// are (the file's `owner:`, or the earliest admin), and how a reloaded file's `schedules:` are
// synced again (added, updated, removed ones deactivated; a file that no longer loads keeps them).

function syndicateWith(schedules: string[]): string {
  return ['syndicate_name: pulse', 'orchestrator:', '  name: Pulse', '  model: scripted', '  instruction: Answer.', ...(schedules.length > 0 ? ['schedules:', ...schedules] : []), ''].join('\n');
}

const task = (name: string, message: string) => [`  - name: ${name}`, '    cron: "0 8 * * 1-5"', `    message: ${message}`];

let folder: string;
let file: string;
let platform: Platform;
let registry: WatchedSyndicateRegistry;
let scheduler: TaskScheduler;
const warnings: string[] = [];

/** Serves the file over a store holding these users (id, role, createdAt). */
async function serve(schedules: string[], users: Array<[string, string, number]> = []): Promise<void> {
  writeFileSync(file, syndicateWith(schedules));
  const store = await platform.store();
  for (const [id, role, createdAt] of users) await store.users.createUser({ id, role, createdAt });
  registry = loadSyndicates([folder], { platform, warn: (message) => void warnings.push(message), offline: true, watch: false });
  scheduler = await startSchedules(platform, registry, idleTurns(), (message) => void warnings.push(message));
}

beforeEach(async () => {
  folder = scratchDir('declared-tasks');
  file = join(folder, 'pulse.yaml');
  platform = await createPlatform({ store: join(folder, 'syndicate.db'), env: {} });
});

afterEach(async () => {
  await scheduler.close();
  await registry.close();
  await platform.close();
  warnings.length = 0;
});

async function tasks(): Promise<ScheduledTask[]> {
  return (await platform.store()).schedules.list(['pulse'], { all: true });
}

const byName = (all: ScheduledTask[], name: string) => all.find((one) => one.name === name);

describe("a syndicate file's task's owner", () => {
  it('is the earliest admin when the file names none', async () => {
    await serve(task('brief', 'Brief me.'), [['zed', 'admin', 1], ['admin', 'admin', 2], ['alice', 'member', 0]]);

    expect(byName(await tasks(), 'brief')).toMatchObject({ owner: { kind: 'user', id: 'zed' }, runAs: 'zed' });
  });

  it('is admin, the id the first start gives the admin, before any admin exists', async () => {
    await serve(task('brief', 'Brief me.'));

    expect(byName(await tasks(), 'brief')).toMatchObject({ owner: { kind: 'user', id: 'admin' }, runAs: 'admin' });
  });

  it("is the user owner: names, and a fixed session is one of that user's sessions", async () => {
    await serve([...task('standup', 'Standup notes.'), '    owner: alice', '    session: standup'], [['admin', 'admin', 1], ['alice', 'member', 2]]);

    expect(byName(await tasks(), 'standup')).toMatchObject({ owner: { kind: 'user', id: 'alice' }, runAs: 'alice', session: { fixed: 'api:alice:standup' } });
    expect(warnings).toStrictEqual([]);
  });

  it('changes when the reloaded file names another owner', async () => {
    await serve([...task('brief', 'Brief me.'), '    owner: alice'], [['admin', 'admin', 1], ['alice', 'member', 2], ['bob', 'member', 3]]);
    writeFileSync(file, syndicateWith([...task('brief', 'Brief me.'), '    owner: bob']));
    registry.reload(file);

    await eventually(async () => byName(await tasks(), 'brief')?.runAs === 'bob', 'the task runs for bob');
    expect(byName(await tasks(), 'brief')?.owner).toStrictEqual({ kind: 'user', id: 'bob' });
  });

  it('is warned about when owner: names no user of the store', async () => {
    await serve([...task('brief', 'Brief me.'), '    owner: carol'], [['admin', 'admin', 1]]);

    expect(warnings).toStrictEqual([expect.stringContaining("the task 'brief' is owned by 'carol', who is no user here")]);
    expect(byName(await tasks(), 'brief')?.runAs).toBe('carol');
  });
});

describe("a reloaded syndicate file's schedules", () => {
  beforeEach(() => serve([...task('brief', 'Brief me.'), ...task('digest', 'Digest.')]));

  it('adds a task the edited file declares', async () => {
    writeFileSync(file, syndicateWith([...task('brief', 'Brief me.'), ...task('digest', 'Digest.'), ...task('weekly', 'Week in review.')]));
    registry.reload(file);

    await eventually(async () => byName(await tasks(), 'weekly')?.active === true, 'the new task is active');
  });

  it('updates a changed task in place, under the same id', async () => {
    const before = byName(await tasks(), 'brief')!;
    writeFileSync(file, syndicateWith([...task('brief', 'Brief me, shorter.'), ...task('digest', 'Digest.')]));
    registry.reload(file);

    await eventually(async () => byName(await tasks(), 'brief')?.message === 'Brief me, shorter.', 'the message is updated');
    expect(byName(await tasks(), 'brief')).toMatchObject({ id: before.id, active: true });
  });

  it('deactivates a task the file no longer declares, keeping its record', async () => {
    writeFileSync(file, syndicateWith(task('brief', 'Brief me.')));
    registry.reload(file);

    await eventually(async () => byName(await tasks(), 'digest')?.active === false, 'the removed task is inactive');
    expect(byName(await tasks(), 'brief')?.active).toBe(true);
  });

  it('keeps the previous tasks when the edited file is invalid', async () => {
    writeFileSync(file, syndicateWith([...task('brief', 'Brief me.'), '  - name: broken', '    cron: "61 * * * *"', '    message: Never.']));
    registry.reload(file);
    // A valid edit after the invalid one: once it is synced, the invalid one had its chance.
    writeFileSync(file, syndicateWith([...task('brief', 'Brief me.'), ...task('digest', 'Digest.'), ...task('later', 'Later.')]));
    const afterInvalid = await tasks();
    registry.reload(file);
    await eventually(async () => byName(await tasks(), 'later') !== undefined, 'the valid edit is synced');

    expect(afterInvalid.filter((one) => one.active).map((one) => one.name).sort()).toStrictEqual(['brief', 'digest']);
    expect(byName(await tasks(), 'broken')).toBeUndefined();
    expect(warnings.some((warning) => warning.startsWith('error:') && warning.includes('(the previous version keeps serving)'))).toBe(true);
  });
});
