const UNIT_MS: Readonly<Record<string, number>> = {
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};

const RELATIVE = /^(\d+)([mhdw])$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T/;

export const SINCE_FORMATS = '7d, 12h, 30m, 2w, a day 2026-11-01 (local midnight) or an ISO time 2026-11-01T09:00Z';

/**
 * The start of a reporting window in milliseconds since the epoch: a duration back from `now`
 * (m minutes, h hours, d days, w weeks), a local calendar day, or an ISO date-time. Throws for
 * anything else, naming the accepted forms.
 */
export function parseSince(text: string, now: number): number {
  const relative = RELATIVE.exec(text);
  if (relative) return now - Number(relative[1]) * UNIT_MS[relative[2]!]!;
  const day = DAY.exec(text);
  if (day) {
    const [year, month, date] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const start = new Date(year, month - 1, date);
    // Date rolls 2026-02-30 over to March; a day that does not exist is a typo, not a request.
    if (start.getFullYear() === year && start.getMonth() === month - 1 && start.getDate() === date) return start.getTime();
  } else if (DATE_TIME.test(text)) {
    const at = Date.parse(text);
    if (!Number.isNaN(at)) return at;
  }
  throw new Error(`cannot read --since '${text}': use ${SINCE_FORMATS}`);
}
