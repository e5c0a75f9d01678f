import type { DeclaredSchedule } from '../../config/schedules.js';
import { declaredTaskId, type NewTask, type ScheduleStore } from '../../store/schedules.js';

// The tasks a syndicate file declares (`schedules:`), brought into the store when a server starts
// and each time the file reloads: the file is their source, so an edit updates them in place and a
// removed one is deactivated.

/** Whose a file's tasks are, as the face that serves them decides. */
export interface DeclaredOwnership {
  /** The user a task without `owner:` runs for. */
  admin: string;
  /** The id of the owner's session a fixed `session:` names. */
  sessionOf(owner: string, session: string): string;
}

export function declaredTask(syndicate: string, schedule: DeclaredSchedule, ownership: DeclaredOwnership, now: number): NewTask {
  const owner = schedule.owner ?? ownership.admin;
  return {
    id: declaredTaskId(syndicate, schedule.name),
    syndicate,
    name: schedule.name,
    cron: schedule.cron,
    timezone: schedule.timezone,
    at: schedule.at,
    message: schedule.message,
    session: schedule.session === null ? 'new' : { fixed: ownership.sessionOf(owner, schedule.session) },
    owner: { kind: 'user', id: owner },
    runAs: owner,
    requestedBy: null,
    origin: 'file',
    catchUp: schedule.catchUp,
    createdAt: now,
  };
}

/** Syncs each syndicate's declared tasks; warns about a runtime task the file took the name of. */
export async function syncDeclaredTasks(
  store: ScheduleStore,
  syndicates: ReadonlyArray<{ name: string; schedules: readonly DeclaredSchedule[] }>,
  ownership: DeclaredOwnership,
  now: number,
  warn: (message: string) => void,
): Promise<number> {
  let count = 0;
  for (const { name, schedules } of syndicates) {
    const { tasks, displaced } = await store.syncDeclared(name, schedules.map((schedule) => declaredTask(name, schedule, ownership, now)));
    count += tasks.length;
    for (const task of displaced) {
      warn(`warning: ${name}'s file declares the task '${task.name}', so the task of that name added at run time (${task.id}) was deactivated; add it again under another name to keep both`);
    }
  }
  return count;
}
