import { z } from 'zod';

// A moment as the memory faces take it: when a fact was said (`said_at`) or the moment memory is
// read as of (`as_of`). A day alone is a day in UTC; a date-time must carry its zone, since a
// server cannot know the caller's.

const DAY_MS = 86_400_000;
// Clients stamp said_at from their own clock, which may run a little ahead of the server's.
const CLOCK_SKEW_MS = 60_000;

export const InstantSchema = z.union([z.iso.date(), z.iso.datetime({ offset: true })], {
  error: 'use a real date as YYYY-MM-DD or a date-time with its zone, e.g. 2026-03-01T09:30:00Z',
});

/** The moment `text` starts: the first millisecond of a day, or the date-time itself. */
export function instantStart(text: string): number {
  return Date.parse(text);
}

/** The moment `text` ends: the last millisecond of a day ("as of 2026-03-01" includes all of that day), or the date-time itself. */
export function instantEnd(text: string): number {
  return z.iso.date().safeParse(text).success ? Date.parse(text) + DAY_MS - 1 : Date.parse(text);
}

/** When a fact was said: an instant that is not in the future. */
export const SaidAtSchema = InstantSchema.refine((text) => instantStart(text) <= Date.now() + CLOCK_SKEW_MS, {
  error: 'is in the future: give when the fact was said, not when it will hold (that is `date`)',
});
