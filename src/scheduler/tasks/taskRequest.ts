import { randomUUID } from 'node:crypto';
import { CRON_EXAMPLE, cronProblem, isTimeZone, TIME_ZONE_EXAMPLE } from '../../config/cron.js';
import { DEFAULT_TIME_ZONE } from '../../config/schedules.js';
import { MAX_ACTIVE_TASKS, type CatchUp, type NewTask, type ScheduledTask, type ScheduleStore, type TaskOwner } from '../../store/schedules.js';

// A task asked for at run time (CLI, API, an agent's schedule_task): checked, then added. Every
// refusal is a sentence that names the fix, returned as a value for the face to show.

export interface TaskRequest {
  syndicate: string;
  name: string;
  cron?: string;
  /** An ISO 8601 instant with its offset. */
  at?: string;
  timezone?: string;
  message: string;
  /** 'new' (default) or a fixed session id. */
  session?: string;
  catchUp?: CatchUp;
}

export interface TaskRequester {
  owner: TaskOwner;
  runAs: string;
  requestedBy: string | null;
}

export type AddedTask = { ok: true; task: ScheduledTask } | { ok: false; error: string };

const TASK_NAME = /^[A-Za-z0-9._-]{1,64}$/;

/** Checks the request and adds it; `syndicates` are the ones that exist (served or named by a file). */
export async function addRequestedTask(store: ScheduleStore, request: TaskRequest, requester: TaskRequester, syndicates: readonly string[], now: number): Promise<AddedTask> {
  if (!syndicates.includes(request.syndicate)) {
    return { ok: false, error: `there is no syndicate '${request.syndicate}' here: name one of ${syndicates.join(', ') || '(none is loaded)'}` };
  }
  if (!TASK_NAME.test(request.name)) return { ok: false, error: `task name '${request.name}' is not allowed: use 1-64 letters, digits, '.', '_' or '-'` };
  if ((request.cron === undefined) === (request.at === undefined)) return { ok: false, error: `give a cron pattern (e.g. ${CRON_EXAMPLE}) or an instant (at, e.g. 2026-12-24T09:00:00Z), one of them` };
  const timezone = request.timezone ?? DEFAULT_TIME_ZONE;
  if (!isTimeZone(timezone)) return { ok: false, error: `'${timezone}' is not an IANA time zone: use e.g. ${TIME_ZONE_EXAMPLE}` };
  let at: number | null = null;
  if (request.cron !== undefined) {
    const problem = cronProblem(request.cron);
    if (problem !== undefined) return { ok: false, error: `'${request.cron}' is not a cron expression croner accepts: ${problem} (e.g. ${CRON_EXAMPLE})` };
  } else {
    at = /(Z|[+-]\d{2}:\d{2})$/.test(request.at!) ? Date.parse(request.at!) : Number.NaN;
    if (Number.isNaN(at)) return { ok: false, error: `'${request.at}' is not an ISO 8601 instant with its offset: use e.g. 2026-12-24T09:00:00Z` };
    if (at <= now) return { ok: false, error: `${request.at} is in the past: give a later instant, or a cron pattern for a recurring task` };
  }
  if (request.message.trim() === '') return { ok: false, error: 'the message is empty: give the text each run sends' };
  const task: NewTask = {
    id: randomUUID(),
    syndicate: request.syndicate,
    name: request.name,
    cron: request.cron ?? null,
    timezone,
    at,
    message: request.message,
    session: request.session === undefined || request.session === 'new' ? 'new' : { fixed: request.session },
    ...requester,
    origin: 'runtime',
    catchUp: request.catchUp ?? 'none',
    createdAt: now,
  };
  const added = await store.add(task);
  if (added.ok) return added;
  return added.reason === 'duplicate'
    ? { ok: false, error: `${request.syndicate} already has an active task named '${request.name}': choose another name, or remove that task first` }
    : { ok: false, error: `${request.syndicate} has ${MAX_ACTIVE_TASKS} active tasks, the most a syndicate may have: remove one before adding another` };
}
