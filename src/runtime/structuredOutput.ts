import { parseJsonReply } from '../models/jsonReply.js';
import type { CompiledOutputSchema } from './compileSyndicate.js';

export type StructuredOutput = { ok: true; value: unknown; text: string } | { ok: false; problem: string };

export function parseStructuredOutput(schema: CompiledOutputSchema, text: string): StructuredOutput {
  const parsed = parseJsonReply(text);
  if (!parsed.ok) return parsed;
  const checked = schema.validator.safeParse(parsed.value);
  if (!checked.success) {
    const problems = checked.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    return { ok: false, problem: `the JSON does not match the schema (${problems.join('; ')})` };
  }
  return { ok: true, value: checked.data, text: JSON.stringify(checked.data) };
}
