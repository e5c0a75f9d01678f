import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';
import { scriptSchema, type ScriptStep } from '../../config/schema.js';
import { ModelConfigError } from '../errors.js';

export type ScriptFile = Record<string, ScriptStep[]>;

/** Key for the steps of every agent that has no entry of its own. */
export const ANY_AGENT = '*';

const scriptFileSchema = z.record(z.string(), scriptSchema);

function describeIssue(issue: z.core.$ZodIssue): string {
  const [agent, step, ...field] = issue.path;
  let where = `agent "${String(agent)}"`;
  if (typeof step === 'number') where += ` step ${step + 1}`;
  if (field.length > 0) where += ` field ${field.map(String).join('.')}`;
  return `  ${where}: ${issue.message}`;
}

/** Reads a `--script` file (YAML or JSON) mapping agent names, or "*", to script steps. */
export function loadScriptFile(path: string): ScriptFile {
  let data: unknown;
  try {
    data = parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ModelConfigError(`Cannot read script file ${path}: ${(error as Error).message}`, { cause: error });
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ModelConfigError(`Script file ${path} must map agent names (or "${ANY_AGENT}") to lists of steps.`);
  }
  const result = scriptFileSchema.safeParse(data);
  if (!result.success) {
    throw new ModelConfigError(`Invalid script file ${path}:\n${result.error.issues.map(describeIssue).join('\n')}`);
  }
  return result.data;
}
