import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { normalizeOutputSchema } from '../../src/config/index.js';
import { issuesOf, removeFixtures, syndicateYaml, writeFixture } from './fixtures.js';

afterEach(removeFixtures);

describe('normalizeOutputSchema', () => {
  it('turns nullable: true into a null type and a null enum value', () => {
    const { schema, problems } = normalizeOutputSchema({ type: 'STRING', nullable: true, enum: ['yes', 'no'] });

    expect(problems).toEqual([]);
    expect(schema).toEqual({ type: ['string', 'null'], enum: ['yes', 'no', null] });
  });

  it('closes nested objects and array items unless they say otherwise', () => {
    const { schema } = normalizeOutputSchema({
      type: 'object',
      properties: { tags: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } } },
      additionalProperties: true,
    });

    expect(schema).toEqual({
      type: 'object',
      properties: { tags: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false } } },
      additionalProperties: true,
    });
  });

  it('reports an unknown type name with a suggestion', () => {
    const { problems } = normalizeOutputSchema({ type: 'OBJECT', properties: { score: { type: 'INTEGR' } } });

    expect(problems).toEqual([{ path: ['properties', 'score', 'type'], message: 'unknown type "INTEGR" — did you mean \'integer\'?' }]);
  });

  it('reports an unknown type in a syndicate file at its position', () => {
    const dir = writeFixture({ 'syndicate.yaml': syndicateYaml({ orchestrator: ['  outputSchema:', '    type: OBJECT', '    properties:', '      score: { type: FLOATY }'] }) });

    expect(issuesOf(path.join(dir, 'syndicate.yaml'))).toMatchObject([
      { line: 9, column: 22, path: 'orchestrator.outputSchema.properties.score.type', message: expect.stringContaining('unknown type "FLOATY"') },
    ]);
  });
});
