import { realpathSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSyndicate } from '../../src/config/index.js';
import { issuesOf, removeFixtures, syndicateYaml, writeFixture } from './fixtures.js';

afterEach(removeFixtures);

const mountingEntry = (reference: string): string[] => ['  - name: Research', '    description: Finds sources.', `    yaml_reference: ${reference}`];

const researchTeam = [
  'syndicate_name: Research team',
  'variables:',
  '  depth: shallow',
  '  topic: cats',
  'dispatch:',
  '  default_route: Finder',
  'orchestrator:',
  '  name: ResearchLead',
  '  model: ollama/research-model',
  '  instruction: Research {{topic}} at {{depth}} depth.',
  'subagents:',
  '  - name: Finder',
  '    description: Finds.',
  '    instruction: Find.',
  '',
].join('\n');

describe('yaml_reference', () => {
  it('mounts the referenced syndicate as the subagent under the entry name and description', () => {
    const dir = writeFixture({ 'root.yaml': syndicateYaml({ subagents: mountingEntry('teams/research.yaml') }), 'teams/research.yaml': researchTeam });

    const mounted = loadSyndicate(path.join(dir, 'root.yaml')).root.subagents[0];

    expect(mounted).toMatchObject({
      name: 'Research',
      description: 'Finds sources.',
      model: 'ollama/research-model',
      file: realpathSync(path.join(dir, 'teams/research.yaml')),
      dispatch: { default_route: 'Finder' },
      subagents: [{ name: 'Finder' }],
    });
  });

  it("lets the mounting file's variables override the mounted file's own", () => {
    const dir = writeFixture({
      'root.yaml': syndicateYaml({ extra: ['variables:', '  depth: deep'], subagents: mountingEntry('teams/research.yaml') }),
      'teams/research.yaml': researchTeam,
    });

    const mounted = loadSyndicate(path.join(dir, 'root.yaml')).root.subagents[0];

    expect(mounted?.instruction).toBe('Research cats at deep depth.');
  });

  it('reports issues inside the referenced file with its own path and positions', () => {
    const dir = writeFixture({
      'root.yaml': syndicateYaml({ subagents: mountingEntry('teams/research.yaml') }),
      'teams/research.yaml': researchTeam.replace('    instruction: Find.', '    instruction: Find.\n    tools: [calculatr]'),
    });

    expect(issuesOf(path.join(dir, 'root.yaml'))).toMatchObject([{ file: path.join(dir, 'teams/research.yaml'), line: 15, column: 13, path: 'subagents[0].tools[0]' }]);
  });

  it('refuses a reference that leaves the root file folder', () => {
    const outside = writeFixture({ 'elsewhere.yaml': researchTeam });
    const dir = writeFixture({ 'root.yaml': syndicateYaml({ subagents: mountingEntry(path.join(outside, 'elsewhere.yaml')) }) });

    expect(issuesOf(path.join(dir, 'root.yaml'))).toMatchObject([{ path: 'subagents[0].yaml_reference', message: expect.stringContaining('is outside') }]);
  });

  it('refuses a symlink that leads out of the root file folder', () => {
    const outside = writeFixture({ 'elsewhere.yaml': researchTeam });
    const dir = writeFixture({ 'root.yaml': syndicateYaml({ subagents: mountingEntry('link.yaml') }) });
    symlinkSync(path.join(outside, 'elsewhere.yaml'), path.join(dir, 'link.yaml'));

    expect(issuesOf(path.join(dir, 'root.yaml'))).toMatchObject([{ path: 'subagents[0].yaml_reference', message: expect.stringContaining('is outside') }]);
  });

  it('refuses a cycle and names the chain of files', () => {
    const dir = writeFixture({
      'a.yaml': syndicateYaml({ subagents: mountingEntry('b.yaml') }),
      'b.yaml': syndicateYaml({ subagents: mountingEntry('a.yaml') }).replace('name: Boss', 'name: BossB').replace('name: Research', 'name: ResearchB'),
    });

    expect(issuesOf(path.join(dir, 'a.yaml'))).toMatchObject([
      { file: path.join(dir, 'b.yaml'), path: 'subagents[0].yaml_reference', message: expect.stringContaining('cycle: a.yaml -> b.yaml -> a.yaml') },
    ]);
  });

  it('refuses an agent name reused inside a mounted file', () => {
    const dir = writeFixture({
      'root.yaml': syndicateYaml({ subagents: [...mountingEntry('research.yaml'), '  - { name: Finder, description: Also finds., instruction: Find. }'] }),
      'research.yaml': researchTeam,
    });

    expect(issuesOf(path.join(dir, 'root.yaml'))).toMatchObject([
      { file: path.join(dir, 'research.yaml'), path: 'subagents[0].name', message: expect.stringContaining("agent name 'Finder' is already used") },
    ]);
  });
});
