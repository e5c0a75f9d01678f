import { Cron } from 'croner';
import { z } from 'zod';

// Cron patterns and time zones as syndicate files (dreams, schedules) and run-time tasks write
// them: croner reads the pattern, with seconds allowed ("*/2 * * * * *" fires every 2 seconds).

/** 5 fields (minute first), or 6 (second first); no year field. */
const CRON_MODE = '5-or-6-parts' as const;

/** Why croner refuses the pattern; undefined when it accepts it. */
export function cronProblem(pattern: string): string | undefined {
  try {
    new Cron(pattern, { paused: true, mode: CRON_MODE });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

const HOUR_MS = 3_600_000;

/**
 * Two firings of the pattern less than an hour apart, or undefined when it fires at most once an
 * hour. Exact without walking its year of firings: a pattern fires on every pairing of its seconds
 * and its minutes in each hour it fires in, so it fires more than once an hour just when the first
 * two firings of such an hour are both in it. Read in UTC: a time zone shifts the hours it fires in,
 * not which minutes and seconds.
 */
export function firingsWithinAnHour(pattern: string): [Date, Date] | undefined {
  const cron = new Cron(pattern, { paused: true, mode: CRON_MODE, timezone: 'UTC' });
  const some = cron.nextRun(new Date(0));
  if (!some) return undefined;
  const first = cron.nextRun(new Date(some.getTime() - (some.getTime() % HOUR_MS) - 1))!;
  const second = cron.nextRun(first);
  return second && second.getTime() - first.getTime() < HOUR_MS ? [first, second] : undefined;
}

/** Whether `zone` is an IANA time zone (or an alias such as UTC) this Node knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const CRON_EXAMPLE = '"0 8 * * 1-5" for 08:00 on weekdays, "*/30 * * * * *" for every 30 seconds';
export const TIME_ZONE_EXAMPLE = 'Europe/Lisbon or UTC';

/** A cron pattern field; `example` is what its error suggests (a dream and a task want different ones). */
export const cronSchema = (example: string = CRON_EXAMPLE) =>
  z.string().refine((pattern) => cronProblem(pattern) === undefined, {
    // Aborts: a check after it (a dream's floor) may read the pattern with croner.
    abort: true,
    error: (issue) => `is not a cron expression croner accepts: ${cronProblem(String(issue.input))} (e.g. ${example})`,
  });

export const timeZoneSchema = z.string().refine(isTimeZone, { error: `is not an IANA time zone (e.g. ${TIME_ZONE_EXAMPLE})` });

/** The firing after `after` (ms since the epoch, exclusive), or undefined when the pattern never fires again. */
export function nextFiring(pattern: string, timezone: string, after: number): number | undefined {
  return new Cron(pattern, { paused: true, mode: CRON_MODE, timezone }).nextRun(new Date(after))?.getTime();
}

/** The latest firing at or before `atOrBefore` (ms since the epoch), or undefined when there is none. */
export function previousFiring(pattern: string, timezone: string, atOrBefore: number): number | undefined {
  return new Cron(pattern, { paused: true, mode: CRON_MODE, timezone }).previousRuns(1, new Date(atOrBefore + 1))[0]?.getTime();
}
