import type { CompiledOutputSchema } from './compileSyndicate.js';

export type StructuredOutput = { ok: true; value: unknown; text: string } | { ok: false; problem: string };

// Models often wrap JSON in a markdown fence even in JSON mode; accept that, nothing looser.
const FENCE = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/;

export function parseJsonReply(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  const trimmed = text.trim();
  if (!trimmed) return { ok: false, problem: 'the reply was empty' };
  const body = FENCE.exec(trimmed)?.[1] ?? trimmed;
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (error) {
    return { ok: false, problem: `the reply is not valid JSON (${(error as Error).message})` };
  }
}

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
