import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSyndicate } from '../../src/config/index.js';
import { issuesOf, removeFixtures, syndicateYaml, writeFixture } from './fixtures.js';

afterEach(removeFixtures);

function loaded(yaml: string) {
  const dir = writeFixture({ 'syndicate.yaml': yaml });
  return loadSyndicate(path.join(dir, 'syndicate.yaml'));
}

describe('code_mode', () => {
  it('is off unless the file asks for it', () => {
    const { root } = loaded(syndicateYaml());

    expect([root.codeMode, root.subagents[0]!.codeMode]).toEqual([false, false]);
  });

  it('turns on for one agent with code_mode on that agent', () => {
    const { root } = loaded(syndicateYaml({ orchestrator: ['  code_mode: true'] }));

    expect([root.codeMode, root.subagents[0]!.codeMode]).toEqual([true, false]);
  });

  it('turns on for every agent with code_mode at the top of the file, unless an agent opts out', () => {
    const { root } = loaded(syndicateYaml({ extra: ['code_mode: true'], subagents: ['  - name: Helper', '    description: Answers.', '    instruction: Answer.', '    code_mode: false'] }));

    expect([root.codeMode, root.subagents[0]!.codeMode]).toEqual([true, false]);
  });

  it('refuses a code_mode that is not a boolean, naming the line and column', () => {
    const dir = writeFixture({ 'syndicate.yaml': syndicateYaml({ orchestrator: ['  code_mode: yes please'] }) });

    expect(issuesOf(path.join(dir, 'syndicate.yaml'))).toMatchObject([{ line: 6, column: 14, path: 'orchestrator.code_mode', message: 'must be true or false, got "yes please"' }]);
  });

  it('refuses code_mode on a remote A2A agent, which runs its own tools', () => {
    const dir = writeFixture({ 'syndicate.yaml': syndicateYaml({ subagents: ['  - name: Far', '    a2a_url: https://example.com', '    code_mode: true'] }) });

    expect(issuesOf(path.join(dir, 'syndicate.yaml'))).toMatchObject([{ path: 'subagents[0].code_mode', message: expect.stringContaining('not used with a2a_url') }]);
  });
});
