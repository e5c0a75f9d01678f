// Durations as a person writes them, in a syndicate file (`timeout: 90s`) or a flag
// (`--deadline 5m`): a number with a unit (ms, s, m, h), or a bare number of seconds.

const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/;
const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

export const DURATION_FORMAT = 'a number with a unit, e.g. 500ms, 90s, 5m or 1h (a bare number is seconds)';

/** Milliseconds, or undefined when `value` is no duration above zero. */
export function parseDuration(value: string | number): number | undefined {
  const match = DURATION.exec(String(value).trim());
  if (!match) return undefined;
  const ms = Number(match[1]) * (UNIT_MS[match[2] ?? 's'] ?? 1_000);
  return ms > 0 && Number.isFinite(ms) ? ms : undefined;
}
