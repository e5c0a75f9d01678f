import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSyndicate } from '../../src/config/index.js';
import { issuesOf, removeFixtures, syndicateYaml, writeFixture } from './fixtures.js';

// Fields as melchizedek-agents' reference documentation writes them load unchanged.

afterEach(removeFixtures);

function load(yaml: string) {
  const dir = writeFixture({ 'syndicate.yaml': yaml });
  return loadSyndicate(path.join(dir, 'syndicate.yaml'));
}

function fileOf(yaml: string): string {
  return path.join(writeFixture({ 'syndicate.yaml': yaml }), 'syndicate.yaml');
}

describe('Gemini-style enum values', () => {
  it('accepts thinkingLevel in capitals, as the documentation writes it, and stores it as the providers take it', () => {
    const syndicate = load(syndicateYaml({ orchestrator: ['  generateContentConfig:', '    thinkingConfig:', '      thinkingLevel: "MEDIUM"'] }));

    expect(syndicate.root.generateContentConfig.thinkingConfig).toEqual({ thinkingLevel: 'medium' });
  });

  it('accepts safety setting categories and thresholds in any case, stored in capitals', () => {
    const syndicate = load(
      syndicateYaml({ orchestrator: ['  generateContentConfig:', '    safetySettings:', '      - category: harm_category_harassment', '        threshold: Block_Only_High'] }),
    );

    expect(syndicate.root.generateContentConfig.safetySettings).toEqual([{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' }]);
  });

  it('refuses a thinking level that does not exist in any case, naming the accepted ones', () => {
    const issues = issuesOf(fileOf(syndicateYaml({ orchestrator: ['  generateContentConfig:', '    thinkingConfig:', '      thinkingLevel: EXTREME'] })));

    expect(issues).toMatchObject([{ path: 'orchestrator.generateContentConfig.thinkingConfig.thinkingLevel', line: 8 }]);
    expect(issues[0]?.message).toMatch(/minimal.*low.*medium.*high/);
  });
});

describe('google_search, the legacy name of web_search', () => {
  it('loads as web_search', () => {
    const syndicate = load(syndicateYaml({ orchestrator: ['  tools: [google_search]'] }));

    expect(syndicate.root.tools).toEqual(['web_search']);
  });

  it('warns at its position, naming the new name', () => {
    const { warnings } = load(syndicateYaml({ orchestrator: ['  tools: [google_search]'] }));

    expect(warnings).toMatchObject([{ path: 'orchestrator.tools[0]', line: 6 }]);
    expect(warnings[0]?.message).toContain('write web_search instead');
  });
});

describe('a syndicate without subagents', () => {
  it('loads as a single agent', () => {
    const syndicate = load(['syndicate_name: Tutor', 'orchestrator:', '  name: Tutor', '  model: scripted', '  instruction: Teach.', '  tools: [calculator]', ''].join('\n'));

    expect(syndicate.root).toMatchObject({ name: 'Tutor', tools: ['calculator'], subagents: [] });
  });
});
