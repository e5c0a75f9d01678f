import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatIssue, SyndicateConfigError } from '../../src/config/errors.js';
import { loadSyndicate } from '../../src/config/loadSyndicate.js';
import { SEED_EXAMPLES_DIR } from '../seedExamplesDir.js';
import { scratchDir } from '../support/scratchDir.js';
import { fuzzSeeds, mutate, pick, seeded } from './fuzzing.js';

// Mutated syndicate files (the bundled and the seed examples, edited at random) either load or
// are refused with a SyndicateConfigError whose every issue has its file:line:col. Nothing else
// may be thrown: no crash, no top-level error without a position.

const CASES_PER_SEED = 600;
const EXAMPLES_DIR = new URL('../../examples/', import.meta.url).pathname;

const sources = [
  ...readdirSync(EXAMPLES_DIR).map((name) => join(EXAMPLES_DIR, name)),
  ...readdirSync(SEED_EXAMPLES_DIR).filter((name) => name.endsWith('.yaml')).map((name) => join(SEED_EXAMPLES_DIR, name)),
].map((file) => readFileSync(file, 'utf8'));

/** What is wrong with how loading `file` ended, or undefined when it ended properly. */
function improperEnding(file: string): string | undefined {
  try {
    loadSyndicate(file);
    return undefined;
  } catch (error) {
    if (!(error instanceof SyndicateConfigError)) return `threw ${error instanceof Error ? error.stack : String(error)}`;
    const unplaced = error.issues.filter((issue) => !(issue.line >= 1 && issue.column >= 1 && issue.message !== ''));
    if (unplaced.length > 0) return `issues without file:line:col: ${unplaced.map(formatIssue).join('; ')}`;
    return undefined;
  }
}

describe.each(fuzzSeeds())('the YAML loader on mutated syndicate files (seed %i)', (seed) => {
  it(`loads or refuses each of ${CASES_PER_SEED} files with file:line:col issues`, () => {
    const random = seeded(seed);
    const file = join(scratchDir('fuzz-yaml'), 'case.yaml');
    for (let index = 0; index < CASES_PER_SEED; index++) {
      const text = mutate(random, pick(random, sources));
      writeFileSync(file, text);

      const problem = improperEnding(file);

      expect(problem, `seed ${seed}, case ${index}; the file was:\n${text}`).toBeUndefined();
    }
  }, 120_000);
});
