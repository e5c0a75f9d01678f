import { readFileSync } from 'node:fs';
import type { VariableValue } from './schema.js';
import { isRecord } from './problem.js';
import { VARIABLE_NAME, isVariableValue } from './variables.js';

// Variable values from the command line: `--bind key=value` pairs and a `--bindings file.json`.

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** `--bind` pairs win over the JSON file. Throws an Error saying which argument is wrong. */
export function parseBindings(pairs: readonly string[], jsonFile?: string): Record<string, VariableValue> {
  const fromFile = jsonFile === undefined ? {} : readBindingsFile(jsonFile);
  return { ...fromFile, ...Object.fromEntries(pairs.map(parsePair)) };
}

/** `true`/`false` become booleans and plain decimal numbers become numbers; anything else (e.g. `007`) stays text. */
export function parseBoundValue(text: string): VariableValue {
  if (text === 'true') return true;
  if (text === 'false') return false;
  return NUMBER.test(text) ? Number(text) : text;
}

function parsePair(pair: string): [string, VariableValue] {
  const equals = pair.indexOf('=');
  const name = pair.slice(0, Math.max(equals, 0)).trim();
  if (equals < 0 || !VARIABLE_NAME.test(name)) {
    throw new Error(`--bind expects name=value with a name of letters, digits and _, got '${pair}'`);
  }
  return [name, parseBoundValue(pair.slice(equals + 1))];
}

function readBindingsFile(file: string): Record<string, VariableValue> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`--bindings ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isRecord(parsed)) throw new Error(`--bindings ${file}: expected a JSON object like {"audience": "engineers", "temp": 0.2}`);
  const bindings: Record<string, VariableValue> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (!VARIABLE_NAME.test(name)) throw new Error(`--bindings ${file}: '${name}' is not a variable name (letters, digits and _)`);
    if (!isVariableValue(value)) throw new Error(`--bindings ${file}: '${name}' must be a string, number or boolean (the file must be flat)`);
    bindings[name] = value;
  }
  return bindings;
}
