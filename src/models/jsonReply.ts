// Models often wrap JSON in a markdown fence even in JSON mode; accept that, nothing looser.
const FENCE = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/;

/** A model's reply read as JSON, or what is wrong with it. */
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
