import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SyndicateConfigError, loadSyndicate } from '../../src/config/index.js';
import { issuesOf, removeFixtures, writeFixture } from './fixtures.js';

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

  it('names the path of a file that does not exist', () => {
    const missing = path.join(writeFixture({}), 'nowhere.yaml');

    expect(() => loadSyndicate(missing)).toThrow(`${missing}: file not found`);
  });
});
