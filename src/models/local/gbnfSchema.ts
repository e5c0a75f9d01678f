import type { JSONSchema7, JSONSchema7Definition } from '@ai-sdk/provider';
import type { GbnfJsonSchema } from './nodeLlamaCpp.js';

// Tool and output schemas arrive as JSON Schema 7; node-llama-cpp builds grammars from its own
// subset of it. This maps one onto the other. The grammar only has to keep the model to the right
// shape: what it cannot express (number ranges, patterns) is still checked by whoever validates
// the arguments. node-llama-cpp writes every listed property (it has no optional properties) and,
// unlike JSON Schema, allows no unlisted ones unless told.

type Mutable = Record<string, unknown>;
type JSONSchema7TypeName = Extract<NonNullable<JSONSchema7['type']>, string>;

const ANY: GbnfJsonSchema = {
  oneOf: [{ type: ['string', 'number', 'boolean', 'null'] }, { type: 'array' }, { type: 'object', additionalProperties: true }],
};

const BASIC_TYPES: ReadonlySet<string> = new Set(['string', 'number', 'integer', 'boolean', 'null']);
const STRING_FORMATS: ReadonlySet<string> = new Set(['date-time', 'time', 'date']);
const DEF_PREFIXES = ['#/$defs/', '#/definitions/'];

type Primitive = string | number | boolean | null;

function isPrimitive(value: unknown): value is Primitive {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function withDescription(schema: JSONSchema7, converted: Mutable): GbnfJsonSchema {
  if (typeof schema.description === 'string') converted.description = schema.description;
  return converted;
}

function convertObject(schema: JSONSchema7): Mutable {
  const properties = Object.entries(schema.properties ?? {});
  const result: Mutable = { type: 'object', properties: Object.fromEntries(properties.map(([key, value]) => [key, toGbnfSchema(value)])) };
  const extra = schema.additionalProperties;
  // An object that lists no properties is a free-form map unless it says otherwise.
  if (extra === undefined ? properties.length === 0 : extra === true) result.additionalProperties = true;
  else if (typeof extra === 'object') result.additionalProperties = toGbnfSchema(extra);
  if (schema.minProperties !== undefined) result.minProperties = schema.minProperties;
  if (schema.maxProperties !== undefined) result.maxProperties = schema.maxProperties;
  return result;
}

function convertArray(schema: JSONSchema7): Mutable {
  const result: Mutable = { type: 'array' };
  if (Array.isArray(schema.items)) result.prefixItems = schema.items.map(toGbnfSchema);
  else if (schema.items !== undefined) result.items = toGbnfSchema(schema.items);
  if (schema.minItems !== undefined) result.minItems = schema.minItems;
  if (schema.maxItems !== undefined) result.maxItems = schema.maxItems;
  return result;
}

function convertString(schema: JSONSchema7): Mutable {
  if (schema.format !== undefined && STRING_FORMATS.has(schema.format)) return { type: 'string', format: schema.format };
  const result: Mutable = { type: 'string' };
  if (schema.minLength !== undefined) result.minLength = schema.minLength;
  if (schema.maxLength !== undefined) result.maxLength = schema.maxLength;
  return result;
}

function convertType(schema: JSONSchema7, type: JSONSchema7TypeName): Mutable {
  if (type === 'object') return convertObject(schema);
  if (type === 'array') return convertArray(schema);
  if (type === 'string') return convertString(schema);
  return { type };
}

function typesOf(schema: JSONSchema7): JSONSchema7TypeName[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (schema.type !== undefined) return [schema.type];
  if (schema.properties !== undefined || schema.additionalProperties !== undefined) return ['object'];
  if (schema.items !== undefined) return ['array'];
  return [];
}

function refName(ref: string): string | undefined {
  const prefix = DEF_PREFIXES.find((p) => ref.startsWith(p));
  return prefix === undefined ? undefined : ref.slice(prefix.length);
}

/** allOf of objects (zod's intersections): one object with every part's properties. */
function mergeAllOf(parts: readonly JSONSchema7Definition[]): JSONSchema7 {
  const objects = parts.filter((part): part is JSONSchema7 => typeof part === 'object');
  const properties = Object.assign({}, ...objects.map((part) => part.properties ?? {})) as JSONSchema7['properties'];
  return { type: 'object', properties, additionalProperties: false };
}

/** One JSON Schema 7 (sub)schema as node-llama-cpp's grammar schema, without the root's $defs. */
export function toGbnfSchema(definition: JSONSchema7Definition): GbnfJsonSchema {
  if (typeof definition === 'boolean') return definition ? ANY : { type: 'null' };
  const schema = definition;
  if (schema.$ref !== undefined) {
    const name = refName(schema.$ref);
    return name === undefined ? ANY : withDescription(schema, { $ref: `#/$defs/${name}` });
  }
  if (schema.const !== undefined) return isPrimitive(schema.const) ? withDescription(schema, { const: schema.const }) : ANY;
  if (schema.enum !== undefined) {
    const values = schema.enum.filter(isPrimitive);
    return values.length === schema.enum.length ? withDescription(schema, { enum: values }) : ANY;
  }
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives !== undefined) return withDescription(schema, { oneOf: alternatives.map(toGbnfSchema) });
  if (schema.allOf !== undefined) {
    return schema.allOf.length === 1 ? toGbnfSchema(schema.allOf[0]!) : withDescription(schema, convertObject(mergeAllOf(schema.allOf)));
  }
  const types = typesOf(schema);
  if (types.length === 0) return ANY;
  if (types.every((type) => BASIC_TYPES.has(type) && type !== 'string')) return withDescription(schema, { type: types.length === 1 ? types[0] : types });
  if (types.length === 1) return withDescription(schema, convertType(schema, types[0]!));
  return withDescription(schema, { oneOf: types.map((type) => convertType(schema, type)) });
}

/** A whole JSON Schema 7 document as a grammar schema, its definitions carried along. */
export function toGbnfDocument(schema: JSONSchema7): GbnfJsonSchema {
  const definitions = { ...schema.definitions, ...schema.$defs };
  const root = toGbnfSchema(schema);
  if (Object.keys(definitions).length === 0) return root;
  const $defs = Object.fromEntries(Object.entries(definitions).map(([name, def]) => [name, toGbnfSchema(def)]));
  return { oneOf: [root], $defs };
}
