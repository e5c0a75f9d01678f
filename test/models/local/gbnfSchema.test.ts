import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toGbnfDocument, toGbnfSchema } from '../../../src/models/local/gbnfSchema.js';

describe('toGbnfSchema', () => {
  it('maps an object tool schema, keeping descriptions and string lengths', () => {
    const schema = z.toJSONSchema(z.object({ expression: z.string().min(1).max(500).describe('Arithmetic'), precise: z.boolean().optional() }), { io: 'input' });

    expect(toGbnfDocument(schema as never)).toEqual({
      type: 'object',
      properties: {
        expression: { type: 'string', minLength: 1, maxLength: 500, description: 'Arithmetic' },
        precise: { type: 'boolean' },
      },
    });
  });

  it('turns anyOf and type lists into oneOf, enums and consts into literals', () => {
    expect(toGbnfSchema({ anyOf: [{ type: 'string' }, { type: 'null' }] })).toEqual({ oneOf: [{ type: 'string' }, { type: 'null' }] });
    expect(toGbnfSchema({ type: ['integer', 'null'] })).toEqual({ type: ['integer', 'null'] });
    expect(toGbnfSchema({ type: ['string', 'null'] })).toEqual({ oneOf: [{ type: 'string' }, { type: 'null' }] });
    expect(toGbnfSchema({ enum: ['a', 'b'] })).toEqual({ enum: ['a', 'b'] });
    expect(toGbnfSchema({ const: 3 })).toEqual({ const: 3 });
  });

  it('keeps a free-form object free and a closed one closed', () => {
    expect(toGbnfSchema({ type: 'object' })).toEqual({ type: 'object', properties: {}, additionalProperties: true });
    expect(toGbnfSchema({ type: 'object', additionalProperties: { type: 'number' } })).toEqual({ type: 'object', properties: {}, additionalProperties: { type: 'number' } });
    expect(toGbnfSchema({ type: 'object', properties: { a: { type: 'number' } } })).toEqual({ type: 'object', properties: { a: { type: 'number' } } });
  });

  it('maps arrays and tuples with their bounds', () => {
    expect(toGbnfSchema({ type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 })).toEqual({ type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 });
    expect(toGbnfSchema({ type: 'array', items: [{ type: 'string' }, { type: 'number' }] })).toEqual({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] });
  });

  it('allows any JSON value where the schema does not say', () => {
    const any = toGbnfSchema({});
    expect(any).toEqual(toGbnfSchema(true));
    expect(JSON.stringify(any)).toContain('"additionalProperties":true');
  });

  it('carries definitions and rewrites references to them', () => {
    const document = toGbnfDocument({
      type: 'object',
      properties: { node: { $ref: '#/definitions/Node' } },
      definitions: { Node: { type: 'object', properties: { name: { type: 'string' } } } },
    });
    expect(document).toEqual({
      oneOf: [{ type: 'object', properties: { node: { $ref: '#/$defs/Node' } } }],
      $defs: { Node: { type: 'object', properties: { name: { type: 'string' } } } },
    });
  });

  it('merges allOf objects', () => {
    const merged = toGbnfSchema({ allOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', properties: { b: { type: 'number' } } }] });
    expect(merged).toEqual({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } } });
  });
});
