import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSyndicate } from '../../src/config/index.js';
import { issuesOf, removeFixtures, syndicateYaml, writeFixture } from './fixtures.js';

afterEach(removeFixtures);

function fileWith(dreams: string[], memory = 'long-term'): string {
  const dir = writeFixture({ 'syndicate.yaml': syndicateYaml({ extra: [`memory_system: ${memory}`, 'dreams:', ...dreams] }) });
  return path.join(dir, 'syndicate.yaml');
}

describe('dreams in a syndicate file', () => {
  it('loads a dream every 24 hours with its agent, instruction and tools', () => {
    const definition = loadSyndicate(fileWith(['  every: 24h', '  agent: Helper', '  instruction: Reflect.', '  tools: [calculator]']));

    expect(definition.dreams).toEqual({ every: 86_400_000, agent: 'Helper', instruction: 'Reflect.', tools: ['calculator'] });
  });

  it('refuses an invalid cron expression at its line and column, with an example', () => {
    const issues = issuesOf(fileWith(['  cron: "61 * * *"', '  agent: Boss']));

    expect(issues).toMatchObject([{ path: 'dreams.cron', line: 4, column: 9, message: expect.stringContaining('(e.g. "0 3 * * *" for 03:00 every day)') }]);
  });

  it('refuses a cron dream that fires every second, saying what it was given, the minimum, and how to fix it', () => {
    const issues = issuesOf(fileWith(['  cron: "* * * * * *"', '  agent: Boss']));

    expect(issues).toMatchObject([{ path: 'dreams.cron', line: 4, column: 9 }]);
    expect(issues[0]!.message).toBe(
      '"* * * * * *" fires more than once an hour (at 00:00:00 and 00:00:01 UTC, for one), and dreams are at least 1h apart since each reflects on every session since the last one: give one value for the minute (and the second, with six fields), e.g. "0 3 * * *" for 03:00 every day',
    );
  });

  it('refuses a five-field cron dream that fires every minute', () => {
    const issues = issuesOf(fileWith(['  cron: "* * * * *"', '  agent: Boss']));

    expect(issues).toMatchObject([{ path: 'dreams.cron', message: expect.stringContaining('"* * * * *" fires more than once an hour (at 00:00:00 and 00:01:00 UTC') }]);
  });

  it('refuses a cron dream that fires twice in one hour, however far apart in it', () => {
    const issues = issuesOf(fileWith(['  cron: "0,59 3 * * *"', '  agent: Boss']));

    expect(issues).toMatchObject([{ path: 'dreams.cron', message: expect.stringContaining('at 03:00:00 and 03:59:00 UTC') }]);
  });

  it('loads a cron dream that fires once every hour, the minimum', () => {
    const definition = loadSyndicate(fileWith(['  cron: "30 * * * *"', '  timezone: Asia/Kolkata', '  agent: Helper']));

    expect(definition.dreams).toMatchObject({ cron: '30 * * * *' });
  });

  it('refuses an unknown time zone, naming the format', () => {
    const issues = issuesOf(fileWith(['  cron: "0 3 * * *"', '  timezone: Mars/Olympus', '  agent: Boss']));

    expect(issues).toMatchObject([{ path: 'dreams.timezone', message: 'is not an IANA time zone (e.g. Europe/Lisbon or UTC)' }]);
  });

  it('asks for one of every and cron', () => {
    const issues = issuesOf(fileWith(['  agent: Boss']));

    expect(issues.map((issue) => issue.message)).toContain('set `every` (e.g. 24h) or `cron` (e.g. "0 3 * * *"), one of them');
  });

  it('refuses an unknown agent, ask_user, and a file without long-term memory', () => {
    const issues = issuesOf(fileWith(['  every: 24h', '  agent: Nobody', '  tools: [ask_user]'], 'session-only'));

    expect(issues.map((issue) => [issue.path, issue.message])).toEqual([
      ['dreams', 'dreams write a journal and facts into long-term memory: set memory_system: long-term'],
      ['dreams.agent', "no agent is named 'Nobody': name one of Boss, Helper"],
      ['dreams.tools[0]', 'a dream runs with nobody there to answer: remove ask_user'],
    ]);
  });
});
