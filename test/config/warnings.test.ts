import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSyndicate } from '../../src/config/index.js';
import { removeFixtures, syndicateYaml, writeFixture } from './fixtures.js';

afterEach(removeFixtures);

function warningsOf(yaml: string) {
  const dir = writeFixture({ 'syndicate.yaml': yaml });
  return loadSyndicate(path.join(dir, 'syndicate.yaml')).warnings;
}

describe('warnings for accepted fields this version does not act on', () => {
  it('loads the file and warns, with position, about a field that has no effect', () => {
    const warnings = warningsOf(syndicateYaml({ orchestrator: ['  outputKey: verdict'] }));

    expect(warnings).toMatchObject([{ line: 6, column: 3, path: 'orchestrator.outputKey' }]);
    expect(warnings[0]?.message).toContain('has no effect');
  });

  it('gives no warnings for a file that uses only supported fields', () => {
    expect(warningsOf(syndicateYaml())).toEqual([]);
  });
});
