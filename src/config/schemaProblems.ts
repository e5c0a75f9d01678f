import { z } from 'zod';
import { valueAt, type Path, type PathSegment, type Problem } from './problem.js';
import { closestMatch } from './suggest.js';

// Zod's issues rewritten for a person in a hurry: what is wrong at which field, and how to fix it.

type Issue = z.core.$ZodIssue;

const TYPE_PHRASES: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a mapping (key: value lines)',
  record: 'a mapping (key: value lines)',
};

/** One problem per issue, and one per unknown key so each points at its own line. */
export function schemaProblems(issues: readonly Issue[], data: unknown, schema: z.ZodType): Problem[] {
  return issues.flatMap((issue): Problem[] => {
    const path = issue.path.filter((segment): segment is PathSegment => typeof segment !== 'symbol');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: [...path, key], anchor: 'key', message: unknownKeyMessage(key, schema, path) }));
    }
    return [{ path, message: describeIssue(issue, valueAt(data, path)) }];
  });
}

function describeIssue(issue: Issue, value: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      if (value === undefined) return 'required';
      return `must be ${typePhrase(issue.expected)}, got ${describeValue(value)}`;
    case 'invalid_value': {
      const options = issue.values.map((option) => JSON.stringify(option)).join(', ');
      const suggestion = typeof value === 'string' ? closestMatch(value, issue.values.map(String)) : undefined;
      return suggestion ? `must be one of ${options} — did you mean "${suggestion}"?` : `must be one of ${options}, got ${describeValue(value)}`;
    }
    case 'too_small':
      if (issue.origin === 'string') return issue.minimum === 1 ? 'must not be empty' : `must be at least ${issue.minimum} characters`;
      if (issue.origin === 'array') return `needs at least ${issue.minimum} item(s)`;
      return `must be ${issue.inclusive ? 'at least' : 'greater than'} ${issue.minimum}, got ${describeValue(value)}`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${issue.maximum} characters`;
      if (issue.origin === 'array') return `allows at most ${issue.maximum} item(s)`;
      return `must be ${issue.inclusive ? 'at most' : 'less than'} ${issue.maximum}, got ${describeValue(value)}`;
    case 'invalid_union': {
      const expected = [...new Set(issue.errors.flat().flatMap((inner) => (inner.code === 'invalid_type' ? [typePhrase(inner.expected)] : [])))];
      return expected.length > 0 ? `must be ${expected.join(' or ')}, got ${describeValue(value)}` : issue.message;
    }
    default:
      // custom and format issues carry the messages written in schema.ts.
      return issue.message;
  }
}

function unknownKeyMessage(key: string, schema: z.ZodType, parentPath: Path): string {
  const known = Object.keys(objectAt(schema, parentPath)?.shape ?? {});
  const suggestion = closestMatch(key, known);
  if (suggestion) return `unknown key '${key}' — did you mean '${suggestion}'?`;
  // A setting written one level too high, e.g. `temperature` directly on an agent.
  for (const home of known) {
    const nested = closestMatch(key, Object.keys(objectAt(schema, [...parentPath, home])?.shape ?? {}));
    if (nested === key) return `unknown key '${key}' — it belongs under '${home}:'`;
    if (nested) return `unknown key '${key}' — did you mean '${nested}' under '${home}:'?`;
  }
  return `unknown key '${key}' — allowed here: ${known.join(', ')}`;
}

/** The object schema that validates the value at `path` (list items and record values included). */
function objectAt(schema: z.core.$ZodType, path: Path): z.ZodObject | undefined {
  let current: z.core.$ZodType | undefined = unwrap(schema);
  for (const segment of path) {
    if (current instanceof z.ZodObject && typeof segment === 'string') current = current.shape[segment];
    else if (current instanceof z.ZodArray) current = current.element;
    else if (current instanceof z.ZodRecord) current = current.valueType;
    else return undefined;
    current = current === undefined ? undefined : unwrap(current);
  }
  return current instanceof z.ZodObject ? current : undefined;
}

function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  let current = schema;
  while (current instanceof z.ZodOptional || current instanceof z.ZodDefault || current instanceof z.ZodNullable) current = current.unwrap();
  return current;
}

function typePhrase(expected: string): string {
  return TYPE_PHRASES[expected] ?? expected;
}

function describeValue(value: unknown): string {
  if (value === null) return 'an empty value';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return String(value);
}
