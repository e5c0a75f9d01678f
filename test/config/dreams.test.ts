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
