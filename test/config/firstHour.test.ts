import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSyndicate } from '../../src/config/index.js';
import { ModelConfigError } from '../../src/models/errors.js';
import { agent, compile } from '../runtime/fixtures.js';
import { issuesOf, removeFixtures, syndicateYaml, writeFixture } from './fixtures.js';

// Mistakes a new user made in their first hour, each reported where it was made.

afterEach(removeFixtures);

function fileOf(yaml: string): string {
  return path.join(writeFixture({ 'syndicate.yaml': yaml }), 'syndicate.yaml');
}

describe('an unknown model id', () => {
  it('is refused at its file:line:col, with the corrected id', () => {
    const file = fileOf(syndicateYaml({ orchestrator: [] }).replace('model: scripted', 'model: gtp-4o'));

    expect(issuesOf(file)).toMatchObject([
      { line: 4, column: 10, path: 'orchestrator.model', message: expect.stringMatching(/^unknown model "gtp-4o" — did you mean "gpt-4o"\? Supported model ids: gemini-\*/) },
    ]);
  });

  it('is left to the program when it resolves models itself', () => {
    const file = fileOf(syndicateYaml().replace('model: scripted', 'model: acme/rocket'));

    expect(loadSyndicate(file, { customModels: true }).root.model).toBe('acme/rocket');
  });

  it('compiled from code names the agent that declares it, not a subagent inheriting it', () => {
    const root = agent('Boss', { model: 'gtp-4o', subagents: [agent('Helper', { model: undefined })] });

    expect(() => compile(root)).toThrow(ModelConfigError);
    expect(() => compile(root)).toThrow(`Unknown model "gtp-4o" for agent 'Boss'. Did you mean "gpt-4o"?`);
  });
});

describe('a binding the file does not use', () => {
  it('loads with a warning naming the binding and the closest variable', () => {
    const file = fileOf(syndicateYaml({ extra: ['variables:', '  team: support'] }).replace('Route the question.', 'Route the question for {{team}}.'));

    const { warnings } = loadSyndicate(file, { bindings: { taem: 'sales' } });

    expect(warnings).toMatchObject([{ message: "the binding 'taem' is not used: there is no {{taem}} in this file or the files it mounts — did you mean 'team'?" }]);
  });

  it('gives no warning for a binding a placeholder uses', () => {
    const file = fileOf(syndicateYaml().replace('Route the question.', 'Route the question for {{team}}.'));

    expect(loadSyndicate(file, { bindings: { team: 'sales' } }).warnings).toEqual([]);
  });
});

describe('timeout and deadline', () => {
  it('load as milliseconds from durations written with units', () => {
    const syndicate = loadSyndicate(fileOf(syndicateYaml({ extra: ['timeout: 90s', 'deadline: 5m'] })));

    expect(syndicate).toMatchObject({ attemptTimeoutMs: 90_000, deadlineMs: 300_000 });
  });

  it('refuse what is not a duration, saying how to write one', () => {
    expect(issuesOf(fileOf(syndicateYaml({ extra: ['deadline: soon'] })))).toMatchObject([
      { path: 'deadline', line: 2, message: 'must be a duration above zero: a number with a unit, e.g. 500ms, 90s, 5m or 1h (a bare number is seconds)' },
    ]);
  });
});
