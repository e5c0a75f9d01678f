import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractionPrompt } from '../../../src/memory/facts/extractionPrompt.js';

// The golden file is the prompt as written without a {domain_rules} slot.
const GOLDEN = readFileSync(new URL('./extractionPrompt.golden.txt', import.meta.url), 'utf8');

describe('extraction prompt', () => {
  it('is byte-identical to the prompt without the slot when memory_extraction_rules is unset', () => {
    expect(extractionPrompt()).toBe(GOLDEN);
  });

  it('treats blank rules as unset', () => {
    expect(extractionPrompt('  \n ')).toBe(GOLDEN);
  });

  it('puts the rules in the slot, leaving the rest of the prompt unchanged', () => {
    const prompt = extractionPrompt('Record every allergy as a FACT with the key "allergy".\n');
    const rules = 'Domain rules (they refine the rules above):\nRecord every allergy as a FACT with the key "allergy".\n\n';
    expect(prompt).toContain(rules);
    expect(prompt.replace(rules, '')).toBe(GOLDEN);
  });
});
