import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSyndicate } from '../../src/config/index.js';
import { SEED_EXAMPLES_DIR } from '../seedExamplesDir.js';

const seedExamples = `${SEED_EXAMPLES_DIR}/`;

describe('seed examples', () => {
  it('loads council.yaml unchanged with its three agents', () => {
    const council = loadSyndicate(`${seedExamples}council.yaml`);

    expect(council.name).toBe('Council');
    expect(council.memorySystem).toBe('internal-only');
    expect(council.root.name).toBe('Moderator');
    expect(council.root.subagents.map((agent) => agent.name)).toEqual(['Advocate', 'Skeptic']);
    expect(council.root.subagents[0]?.generateContentConfig).toEqual({ temperature: 0.7, maxOutputTokens: 1024 });
  });

  it('loads critic.yaml unchanged with defaults filled in', () => {
    const critic = loadSyndicate(`${seedExamples}critic.yaml`);

    expect(critic.memorySystem).toBe('session-only');
    expect(critic.maxSteps).toBe(20);
    expect(critic.root.description).toBe('Critic Review Workflow');
    expect(critic.root.subagents.map((agent) => agent.name)).toEqual(['DrafterAgent', 'CriticAgent']);
  });

  it("normalises critic.yaml's UPPERCASE output schema to lowercase JSON Schema", () => {
    const critic = loadSyndicate(`${seedExamples}critic.yaml`);
    const schema = critic.root.subagents[1]?.outputSchema;

    expect(schema).toMatchObject({
      type: 'object',
      properties: { message: { type: 'string' }, confidence: { type: 'integer' } },
      required: ['message', 'confidence'],
      additionalProperties: false,
    });
  });
});

const bundledExamples = fileURLToPath(new URL('../../examples/', import.meta.url));

describe('every syndicate file shipped or seeded', () => {
  const files = [
    ...readdirSync(seedExamples).filter((name) => /\.ya?ml$/.test(name)).map((name) => `${seedExamples}${name}`),
    ...readdirSync(bundledExamples).filter((name) => /\.ya?ml$/.test(name) && !name.includes('.script.')).map((name) => `${bundledExamples}${name}`),
  ];

  it('includes the seed examples and the bundled examples', () => {
    expect(files.length).toBeGreaterThanOrEqual(7);
  });

  it.each(files)('%s loads and validates unchanged, with no warnings', (file) => {
    expect(loadSyndicate(file).warnings).toEqual([]);
  });
});
