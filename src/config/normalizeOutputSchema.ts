import type { JSONSchema7 } from '@ai-sdk/provider';
import { isRecord, type Path, type Problem } from './problem.js';
import { closestMatch } from './suggest.js';

// outputSchema is written either Gemini-style (type: OBJECT, nullable: true) or as standard JSON Schema.
// Every provider gets the same lowercase JSON Schema 7; objects are closed unless the file says otherwise,
// so a model cannot pad structured output with fields nobody asked for.

const TYPE_NAMES = ['object', 'string', 'integer', 'number', 'boolean', 'array', 'null'];
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs']);
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf']);
const SCHEMA_VALUES = new Set(['items', 'additionalItems', 'additionalProperties', 'contains', 'propertyNames', 'not', 'if', 'then', 'else']);

export interface NormalizedOutputSchema {
  schema: JSONSchema7;
  /** Paths are relative to the outputSchema itself. */
  problems: Problem[];
}

export function normalizeOutputSchema(schema: Record<string, unknown>): NormalizedOutputSchema {
  const problems: Problem[] = [];
  // The walk keeps every keyword and only rewrites type, nullable and nested schemas, so the result is JSON Schema 7.
  const normalized = normalizeNode(schema, [], problems) as JSONSchema7;
  return { schema: normalized, problems };
}

function normalizeNode(node: Record<string, unknown>, path: Path, problems: Problem[]): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    const at = [...path, key];
    if (key === 'nullable') continue;
    if (key === 'type') result[key] = normalizeType(value, at, problems);
    else if (SCHEMA_MAPS.has(key)) result[key] = normalizeSchemaMap(value, at, problems);
    else if (SCHEMA_LISTS.has(key) || (key === 'items' && Array.isArray(value))) result[key] = normalizeSchemaList(value, at, problems);
    else if (SCHEMA_VALUES.has(key) && isRecord(value)) result[key] = normalizeNode(value, at, problems);
    else result[key] = value;
  }
  applyNullable(result, node['nullable'], path, problems);
  const types = result['type'];
  const isObject = types === 'object' || (Array.isArray(types) && types.includes('object'));
  if (isObject && result['additionalProperties'] === undefined) result['additionalProperties'] = false;
  return result;
}

function normalizeType(value: unknown, path: Path, problems: Problem[]): unknown {
  if (Array.isArray(value)) return value.map((item, index) => normalizeTypeName(item, [...path, index], problems));
  return normalizeTypeName(value, path, problems);
}

function normalizeTypeName(value: unknown, path: Path, problems: Problem[]): unknown {
  const name = typeof value === 'string' ? value.toLowerCase() : undefined;
  if (name !== undefined && TYPE_NAMES.includes(name)) return name;
  const suggestion = typeof value === 'string' ? closestMatch(value, TYPE_NAMES) : undefined;
  const fix = suggestion ? `did you mean '${suggestion}'?` : `use one of ${TYPE_NAMES.join(', ')} (UPPERCASE works too)`;
  problems.push({ path, message: `unknown type ${JSON.stringify(value)} — ${fix}` });
  return value;
}

function normalizeSchemaMap(value: unknown, path: Path, problems: Problem[]): unknown {
  if (!isRecord(value)) {
    problems.push({ path, message: 'must be a mapping of name to schema, e.g. `answer: { type: string }`' });
    return value;
  }
  return Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, normalizeSchemaValue(schema, [...path, name], problems)]));
}

function normalizeSchemaList(value: unknown, path: Path, problems: Problem[]): unknown {
  if (!Array.isArray(value)) {
    problems.push({ path, message: 'must be a list of schemas' });
    return value;
  }
  return value.map((schema, index) => normalizeSchemaValue(schema, [...path, index], problems));
}

function normalizeSchemaValue(value: unknown, path: Path, problems: Problem[]): unknown {
  if (isRecord(value)) return normalizeNode(value, path, problems);
  if (typeof value !== 'boolean') problems.push({ path, message: 'must be a schema (a mapping such as `{ type: string }`)' });
  return value;
}

/** Gemini's `nullable: true` becomes `null` among the allowed types (and values, when there is an enum). */
function applyNullable(result: Record<string, unknown>, nullable: unknown, path: Path, problems: Problem[]): void {
  if (nullable === undefined || nullable === false) return;
  const at = [...path, 'nullable'];
  if (nullable !== true) {
    problems.push({ path: at, message: 'must be true or false' });
    return;
  }
  const type = result['type'];
  if (typeof type === 'string') result['type'] = [type, 'null'];
  else if (Array.isArray(type)) result['type'] = type.includes('null') ? type : [...type, 'null'];
  else problems.push({ path: at, message: 'nullable: true needs a `type` beside it, e.g. `type: STRING`' });
  const values = result['enum'];
  if (Array.isArray(values) && !values.includes(null)) result['enum'] = [...values, null];
}
