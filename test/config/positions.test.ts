import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SyndicateConfigError, loadSyndicate } from '../../src/config/index.js';
import { issuesOf, removeFixtures, syndicateYaml, writeFixture } from './fixtures.js';

afterEach(removeFixtures);

const brokenFile = [
  'syndicate_name: Broken', //                      1
  'orchestrator:', //                               2
  '  name: Boss', //                                3
  '  model: scripted', //                           4
  '  instruction: Route.', //                       5
  '  generateContentConfig:', //                    6
  '    temperature: 7', //                          7
  'subagents:', //                                  8
  '  - description: Has no name.', //               9
  '    instruction: Answer.', //                    10
  '  - name: Writer', //                            11
  '    description: Writes.', //                    12
  '    instruction: Write.', //                     13
  '    tools: [calculator, text_stat]', //          14
  '    colour: blue', //                            15
  '',
].join('\n');

describe('issue positions', () => {
  it('points each issue at the line and column of the offending node', () => {
    const dir = writeFixture({ 'broken.yaml': brokenFile });

    const issues = issuesOf(path.join(dir, 'broken.yaml'));

    expect(issues.map(({ line, column, path: field }) => ({ line, column, field }))).toEqual([
      { line: 7, column: 18, field: 'orchestrator.generateContentConfig.temperature' },
      { line: 9, column: 5, field: 'subagents[0].name' },
      { line: 14, column: 25, field: 'subagents[1].tools[1]' },
      { line: 15, column: 5, field: 'subagents[1].colour' },
    ]);
  });

  it('reports every issue in one pass, one per line of the error message', () => {
    const dir = writeFixture({ 'broken.yaml': brokenFile });
    const file = path.join(dir, 'broken.yaml');

    const error = (() => {
      try {
        loadSyndicate(file);
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();

    expect(error).toBeInstanceOf(SyndicateConfigError);
    const lines = (error as SyndicateConfigError).message.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      `${file}:7:18 orchestrator.generateContentConfig.temperature: must be at most 2, got 7`,
      `${file}:9:5 subagents[0].name: required`,
      `${file}:14:25 subagents[1].tools[1]: unknown tool 'text_stat' — did you mean 'text_stats'?`,
    ]);
    expect(lines[3]).toContain(`${file}:15:5 subagents[1].colour: unknown key 'colour' — allowed here: name, description,`);
    expect(lines).toHaveLength(4);
  });

  it('reports YAML syntax errors with their position', () => {
    const dir = writeFixture({ 'syntax.yaml': 'syndicate_name: X\norchestrator:\n  name: Boss: Two\n' });

    const issues = issuesOf(path.join(dir, 'syntax.yaml'));

    expect(issues).toEqual([
      { file: path.join(dir, 'syntax.yaml'), line: 3, column: 9, path: '', message: 'invalid YAML: Nested mappings are not allowed in compact mappings' },
    ]);
  });

  it('reports an alias with no anchor before it at the alias', () => {
    const dir = writeFixture({ 'alias.yaml': syndicateYaml({ orchestrator: ['  description: *nowhere'] }) });

    const issues = issuesOf(path.join(dir, 'alias.yaml'));

    expect(issues).toEqual([
      { file: path.join(dir, 'alias.yaml'), line: 6, column: 16, path: '', message: 'invalid YAML: unresolved alias *nowhere: set the anchor &nowhere before the alias' },
    ]);
  });

  it('refuses an alias bomb (billion laughs) before expanding it, at its first alias', () => {
    const levels = ['a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (const [from, to] of [['a', 'b'], ['b', 'c'], ['c', 'd'], ['d', 'e'], ['e', 'f'], ['f', 'g'], ['g', 'h'], ['h', 'i']] as const) {
      levels.push(`${to}: &${to} [${Array(9).fill(`*${from}`).join(', ')}]`);
    }
    const dir = writeFixture({ 'bomb.yaml': syndicateYaml({ extra: ['variables:', ...levels.map((line) => `  ${line}`)] }) });

    const [issue, ...rest] = issuesOf(path.join(dir, 'bomb.yaml'));

    expect(rest).toEqual([]);
    expect(issue).toMatchObject({ line: 4, column: 10, message: expect.stringMatching(/^invalid YAML: aliases expand too far \(over 100 uses/) });
  });

  it('refuses an alias inside the node it names', () => {
    const dir = writeFixture({ 'loop.yaml': syndicateYaml({ orchestrator: ['  generateContentConfig: &config { stopSequences: *config }'] }) });

    expect(issuesOf(path.join(dir, 'loop.yaml'))).toMatchObject([
      { line: 6, column: 51, message: 'invalid YAML: alias *config is inside the node it names, so the data would contain itself' },
    ]);
  });

  it('refuses a list or a mapping used as a mapping key', () => {
    const dir = writeFixture({ 'key.yaml': syndicateYaml({ orchestrator: ['  generateContentConfig: { ? [a, b] : 1 }'] }) });

    expect(issuesOf(path.join(dir, 'key.yaml'))).toMatchObject([
      { line: 6, column: 30, message: 'invalid YAML: a mapping key must be text or a number, not a list or a mapping' },
    ]);
  });

  it.each([
    ['!!set', '{ a, b }'],
    ['!!omap', '[ a: 1 ]'],
    ['!!binary', 'aGk='],
    ['!!timestamp', '2001-12-14'],
    ['!custom', 'x'],
  ])('refuses the tag %s at its position, even in a YAML 1.1 file', (tag, value) => {
    const dir = writeFixture({ 'tagged.yaml': `%YAML 1.1\n---\n${syndicateYaml({ orchestrator: [`  generateContentConfig: ${tag} ${value}`] })}` });

    expect(issuesOf(path.join(dir, 'tagged.yaml'))).toMatchObject([
      { line: 8, column: 26, message: `invalid YAML: tag ${tag} is not supported: use plain text, numbers, true/false, null, lists and mappings` },
    ]);
  });

  it('names the path of a file that does not exist', () => {
    const missing = path.join(writeFixture({}), 'nowhere.yaml');

    expect(() => loadSyndicate(missing)).toThrow(`${missing}: file not found`);
  });
});
