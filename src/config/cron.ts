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
  z.string().refine((pattern) => cronProblem(pattern) === undefined, { error: (issue) => `is not a cron expression croner accepts: ${cronProblem(String(issue.input))} (e.g. ${example})` });

export const timeZoneSchema = z.string().refine(isTimeZone, { error: `is not an IANA time zone (e.g. ${TIME_ZONE_EXAMPLE})` });

/** The firing after `after` (ms since the epoch, exclusive), or undefined when the pattern never fires again. */
export function nextFiring(pattern: string, timezone: string, after: number): number | undefined {
  return new Cron(pattern, { paused: true, mode: CRON_MODE, timezone }).nextRun(new Date(after))?.getTime();
}

/** The latest firing at or before `atOrBefore` (ms since the epoch), or undefined when there is none. */
export function previousFiring(pattern: string, timezone: string, atOrBefore: number): number | undefined {
  return new Cron(pattern, { paused: true, mode: CRON_MODE, timezone }).previousRuns(1, new Date(atOrBefore + 1))[0]?.getTime();
}
