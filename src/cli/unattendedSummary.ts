import type { LoadedSyndicate } from '../server/context.js';
import type { ScheduleStore } from '../store/schedules.js';

// serve's banner line about unattended work, so whoever starts it sees that the files' `schedules:`
// and `dreams:` were taken up, and where to follow them.

const HOUR_MS = 3_600_000;

function dreamsOf(syndicate: LoadedSyndicate): string | undefined {
  const dreams = syndicate.compiled.dreams;
  if (!dreams) return undefined;
  const when = dreams.cron !== undefined ? `cron ${dreams.cron}` : `every ${dreams.every! % HOUR_MS === 0 ? `${dreams.every! / HOUR_MS}h` : `${dreams.every! / 60_000}m`}`;
  return `${syndicate.id} (${when})`;
}

/** `studio`: where the studio's Work page is. */
export async function unattendedSummary(schedules: ScheduleStore, syndicates: readonly LoadedSyndicate[], studio: string): Promise<string> {
  const tasks = (await schedules.list(syndicates.map((syndicate) => syndicate.name))).length;
  const dreaming = syndicates.flatMap((syndicate) => dreamsOf(syndicate) ?? []);
  if (tasks === 0 && dreaming.length === 0) return 'no scheduled tasks or dreams (declare them under schedules: and dreams: in a syndicate file, or syndicate tasks add)';
  const parts = [`${tasks} scheduled task${tasks === 1 ? '' : 's'}`, ...(dreaming.length === 0 ? [] : [`dreams: ${dreaming.join(', ')}`])];
  return `${parts.join('; ')}. Follow them at ${studio} or with syndicate tasks runs`;
}
