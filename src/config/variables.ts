import { isRecord, type Path, type Problem } from './problem.js';
import type { VariableValue } from './schema.js';

// `{{name}}` placeholders in string values. File variables and --bind values are filled in at
// load time; the per-turn built-ins stay in place for the runtime to fill on every turn.

export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const WHOLE_PLACEHOLDER = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/;

export const PER_TURN_VARIABLES: ReadonlySet<string> = new Set(['current_date', 'current_time']);

/** Fills the per-turn placeholders: current_date as YYYY-MM-DD (UTC), current_time as ISO 8601. */
export function renderTurnVariables(text: string, now: Date): string {
  const iso = now.toISOString();
  const values = new Map([
    ['current_date', iso.slice(0, 10)],
    ['current_time', iso],
  ]);
  return text.replace(PLACEHOLDER, (match, name: string) => values.get(name) ?? match);
}

/** The well-typed entries of a file's `variables:` block; the schema reports the others. */
export function fileVariables(data: unknown): Record<string, VariableValue> {
  const declared = isRecord(data) ? data['variables'] : undefined;
  if (!isRecord(declared)) return {};
  return Object.fromEntries(Object.entries(declared).filter((entry): entry is [string, VariableValue] => isVariableValue(entry[1])));
}

export function perTurnNameProblems(data: unknown): Problem[] {
  const declared = isRecord(data) ? data['variables'] : undefined;
  if (!isRecord(declared)) return [];
  return Object.keys(declared)
    .filter((name) => PER_TURN_VARIABLES.has(name))
    .map((name) => ({
      path: ['variables', name],
      anchor: 'key',
      message: `{{${name}}} is filled in by the runtime on every turn and cannot be set here — rename this variable`,
    }));
}

export interface Interpolated {
  data: unknown;
  problems: Problem[];
}

/** Substitutes placeholders in every string value except the `variables:` block itself. */
export function interpolateVariables(data: unknown, values: Readonly<Record<string, VariableValue>>): Interpolated {
  const problems: Problem[] = [];
  const lookup = new Map(Object.entries(values));
  const visit = (value: unknown, path: Path): unknown => {
    if (typeof value === 'string') return interpolateString(value, lookup, path, problems);
    if (Array.isArray(value)) return value.map((item, index) => visit(item, [...path, index]));
    if (!isRecord(value)) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, path.length === 0 && key === 'variables' ? item : visit(item, [...path, key])]),
    );
  };
  return { data: visit(data, []), problems };
}

function interpolateString(text: string, values: ReadonlyMap<string, VariableValue>, path: Path, problems: Problem[]): VariableValue {
  // A value that is only a placeholder keeps the bound value's type: `temperature: "{{temp}}"` becomes a number.
  const whole = WHOLE_PLACEHOLDER.exec(text)?.[1];
  const wholeValue = whole === undefined || PER_TURN_VARIABLES.has(whole) ? undefined : values.get(whole);
  if (wholeValue !== undefined) return wholeValue;
  const unresolved = new Set<string>();
  return text.replace(PLACEHOLDER, (match, name: string) => {
    if (PER_TURN_VARIABLES.has(name)) return match;
    const value = values.get(name);
    if (value !== undefined) return String(value);
    if (!unresolved.has(name)) {
      unresolved.add(name);
      problems.push({ path, anchor: { text: match }, message: `unresolved variable {{${name}}} — add it under variables: or pass --bind ${name}=...` });
    }
    return match;
  });
}

export function isVariableValue(value: unknown): value is VariableValue {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** The names of every `{{name}}` placeholder in string values outside the `variables:` block. */
export function placeholderNames(data: unknown): Set<string> {
  const names = new Set<string>();
  const visit = (value: unknown, top: boolean): void => {
    if (typeof value === 'string') for (const match of value.matchAll(PLACEHOLDER)) names.add(match[1] as string);
    else if (Array.isArray(value)) value.forEach((item) => visit(item, false));
    else if (isRecord(value)) for (const [key, item] of Object.entries(value)) if (!(top && key === 'variables')) visit(item, false);
  };
  visit(data, true);
  return names;
}
