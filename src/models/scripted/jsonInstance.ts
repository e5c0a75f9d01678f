import type { JSONSchema7, JSONSchema7Definition } from '@ai-sdk/provider';

type TypeName = Exclude<NonNullable<JSONSchema7['type']>, unknown[]>;

/** Produces the text of a string field, given the nearest property name. */
export type StringFor = (key: string) => string;

// Beyond this depth optional properties and array items are left out, so recursive schemas end.
const NEST_LIMIT = 4;
const HARD_LIMIT = 32;

/** A small, deterministic value that is a valid instance of `schema`. */
export function jsonInstance(schema: JSONSchema7, stringFor: StringFor): unknown {
  return instanceOf(schema, schema, 'value', stringFor, 0);
}

function resolveRef(root: JSONSchema7, ref: string): JSONSchema7Definition | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const segment of ref.slice(2).split('/')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[segment.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return node as JSONSchema7Definition | undefined;
}

function typeOf(node: JSONSchema7): TypeName | undefined {
  const { type } = node;
  if (Array.isArray(type)) return type.find((t) => t !== 'null') ?? type[0];
  if (type !== undefined) return type;
  if (node.properties !== undefined || node.required !== undefined) return 'object';
  if (node.items !== undefined) return 'array';
  return undefined;
}

function instanceOf(node: JSONSchema7Definition, root: JSONSchema7, key: string, stringFor: StringFor, depth: number): unknown {
  if (node === true) return stringFor(key);
  if (node === false || depth > HARD_LIMIT) return null;
  if (node.$ref !== undefined) {
    const target = resolveRef(root, node.$ref);
    return target === undefined ? stringFor(key) : instanceOf(target, root, key, stringFor, depth + 1);
  }
  if (node.const !== undefined) return node.const;
  if (node.enum?.length) return node.enum[0];
  const option = node.anyOf?.[0] ?? node.oneOf?.[0];
  if (option !== undefined) return instanceOf(option, root, key, stringFor, depth + 1);
  switch (typeOf(node)) {
    case 'object':
      return objectOf(node, root, stringFor, depth);
    case 'array':
      return arrayOf(node, root, key, stringFor, depth);
    case 'number':
    case 'integer':
      return numberOf(node);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return stringOf(node, stringFor(key));
  }
}

function objectOf(node: JSONSchema7, root: JSONSchema7, stringFor: StringFor, depth: number): Record<string, unknown> {
  const properties = node.properties ?? {};
  const required = node.required ?? [];
  const value: Record<string, unknown> = {};
  const names = depth < NEST_LIMIT ? Object.keys(properties) : required;
  for (const name of names) value[name] = instanceOf(properties[name] ?? true, root, name, stringFor, depth + 1);
  for (const name of required) if (!(name in value)) value[name] = stringFor(name);
  return value;
}

function arrayOf(node: JSONSchema7, root: JSONSchema7, key: string, stringFor: StringFor, depth: number): unknown[] {
  const wanted = Math.max(node.minItems ?? 0, depth < NEST_LIMIT ? 1 : 0);
  const count = Math.min(wanted, node.maxItems ?? wanted);
  const items = Array.isArray(node.items) ? true : (node.items ?? true);
  const value: unknown[] = [];
  for (let i = 0; i < count; i++) value.push(instanceOf(items, root, key, stringFor, depth + 1));
  return value;
}

/** The midpoint of the bounds, the one bound, or 0 when unbounded (clamped below an upper bound). */
function numberOf(node: JSONSchema7): number {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = node;
  if (typeOf(node) === 'integer') {
    const low = minimum !== undefined ? Math.ceil(minimum) : exclusiveMinimum !== undefined ? Math.floor(exclusiveMinimum) + 1 : undefined;
    const high = maximum !== undefined ? Math.floor(maximum) : exclusiveMaximum !== undefined ? Math.ceil(exclusiveMaximum) - 1 : undefined;
    if (low !== undefined && high !== undefined) return Math.floor((low + high) / 2);
    return low ?? Math.min(0, high ?? 0);
  }
  const low = minimum ?? exclusiveMinimum;
  const high = maximum ?? exclusiveMaximum;
  if (low !== undefined && high !== undefined) return (low + high) / 2;
  if (low !== undefined) return minimum ?? low + 1;
  if (high !== undefined) return Math.min(0, maximum ?? high - 1);
  return 0;
}

function stringOf(node: JSONSchema7, text: string): string {
  const padded = node.minLength !== undefined && text.length < node.minLength ? text.padEnd(node.minLength, '.') : text;
  return node.maxLength === undefined ? padded : padded.slice(0, node.maxLength);
}
