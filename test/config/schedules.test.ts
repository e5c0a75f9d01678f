import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSyndicate } from '../../src/config/index.js';
import { issuesOf, removeFixtures, syndicateYaml, writeFixture } from './fixtures.js';

afterEach(removeFixtures);

function fileWith(schedules: string[]): string {
  const dir = writeFixture({ 'syndicate.yaml': syndicateYaml({ extra: ['schedules:', ...schedules] }) });
  return path.join(dir, 'syndicate.yaml');
}

describe('schedules in a syndicate file', () => {
  it('loads the issue’s example with its defaults filled in', () => {
    const definition = loadSyndicate(
      fileWith(['  - name: "morning-brief"', '    cron: "0 8 * * 1-5"', '    timezone: "Europe/Lisbon"', '    message: "Brief me on what changed overnight."', '    session: "new"']),
    );

    expect(definition.schedules).toEqual([
      { name: 'morning-brief', cron: '0 8 * * 1-5', timezone: 'Europe/Lisbon', at: null, message: 'Brief me on what changed overnight.', session: null, catchUp: 'none', owner: null },
    ]);
  });

  it('loads a one-time task at its instant, a fixed session, catch_up last and a cron with seconds', () => {
    const definition = loadSyndicate(
      fileWith([
        '  - name: xmas',
        '    at: "2026-12-24T09:00:00+01:00"',
        '    message: Merry Christmas.',
        '    session: family-chat',
        '    catch_up: last',
        '  - name: pulse',
        '    cron: "*/2 * * * * *"',
        '    message: Ping.',
      ]),
    );

    expect(definition.schedules).toMatchObject([
      { name: 'xmas', cron: null, at: Date.parse('2026-12-24T08:00:00Z'), session: 'family-chat', catchUp: 'last', timezone: 'UTC' },
      { name: 'pulse', cron: '*/2 * * * * *', at: null, session: null },
    ]);
  });

  it("loads the task's owner, the server user its runs are for", () => {
    const definition = loadSyndicate(fileWith(['  - name: brief', '    cron: "0 8 * * *"', '    message: Hi.', '    owner: alice']));

    expect(definition.schedules).toMatchObject([{ name: 'brief', owner: 'alice' }]);
  });

  it('refuses an owner that is no user id at its line and column', () => {
    const spaced = issuesOf(fileWith(['  - name: brief', '    cron: "0 8 * * *"', '    message: Hi.', '    owner: "alice smith"']));
    const reserved = issuesOf(fileWith(['  - name: brief', '    cron: "0 8 * * *"', '    message: Hi.', '    owner: local']));

    expect(spaced).toMatchObject([{ path: 'schedules[0].owner', line: 6, column: 12, message: "must be a user id: 1-64 letters, digits, '.', '_' or '-'" }]);
    expect(reserved).toMatchObject([{ path: 'schedules[0].owner', message: expect.stringContaining("'client' and 'local' are reserved") }]);
  });

  it('declares no tasks when the file has no schedules', () => {
    const dir = writeFixture({ 'syndicate.yaml': syndicateYaml() });

    expect(loadSyndicate(path.join(dir, 'syndicate.yaml')).schedules).toEqual([]);
  });

  it('refuses an invalid cron expression at its line and column, with an example', () => {
    const issues = issuesOf(fileWith(['  - name: brief', '    cron: "61 * * * *"', '    message: Hi.']));

    expect(issues).toMatchObject([{ path: 'schedules[0].cron', line: 4, column: 11, message: expect.stringMatching(/^is not a cron expression croner accepts: .*minute.*\(e\.g\. "0 8 \* \* 1-5"/) }]);
  });

  it('refuses an unknown time zone at its line and column', () => {
    const issues = issuesOf(fileWith(['  - name: brief', '    cron: "0 8 * * *"', '    timezone: Mars/Olympus', '    message: Hi.']));

    expect(issues).toMatchObject([{ path: 'schedules[0].timezone', line: 5, column: 15, message: 'is not an IANA time zone (e.g. Europe/Lisbon or UTC)' }]);
  });

  it('refuses a second task with the same name, pointing at the second and naming the first', () => {
    const issues = issuesOf(fileWith(['  - name: brief', '    cron: "0 8 * * *"', '    message: Hi.', '  - name: brief', '    cron: "0 9 * * *"', '    message: Hi again.']));

    expect(issues).toMatchObject([{ path: 'schedules[1].name', line: 6, column: 11, message: "task name 'brief' is already used by schedules[0]: names are unique in a syndicate; rename one" }]);
  });

  it('asks for one of cron and at', () => {
    const both = issuesOf(fileWith(['  - name: brief', '    cron: "0 8 * * *"', '    at: "2026-12-24T09:00:00Z"', '    message: Hi.']));
    const neither = issuesOf(fileWith(['  - name: brief', '    message: Hi.']));

    for (const issues of [both, neither]) {
      expect(issues.map((issue) => [issue.path, issue.message])).toEqual([['schedules[0]', 'set `cron` (e.g. "0 8 * * 1-5") or `at` (e.g. "2026-12-24T09:00:00Z"), one of them']]);
    }
  });

  it('refuses an instant without its offset, and a time zone on a one-time task', () => {
    const issues = issuesOf(fileWith(['  - name: xmas', '    at: "2026-12-24T09:00:00"', '    timezone: UTC', '    message: Hi.']));

    expect(issues.map((issue) => [issue.path, issue.message])).toEqual([
      ['schedules[0].at', 'must be an ISO 8601 instant with its offset, e.g. "2026-12-24T09:00:00Z" or "2026-12-24T09:00:00+01:00"'],
      ['schedules[0].timezone', 'only used with `cron`: `at` carries its own offset'],
    ]);
  });

  it('refuses more than 100 tasks, saying what to do', () => {
    const tasks = Array.from({ length: 101 }, (_, i) => [`  - name: t${i}`, '    cron: "0 8 * * *"', '    message: Hi.']).flat();

    expect(issuesOf(fileWith(tasks)).map((issue) => issue.message)).toEqual([expect.stringContaining('at most 100 tasks per syndicate: merge tasks')]);
  });
});
