import { z } from 'zod';
import { MAX_ACTIVE_TASKS, type CatchUp } from '../store/schedules.js';
import { USER_ID } from '../core/silo.js';
import { cronSchema, timeZoneSchema } from './cron.js';

// `schedules:` in a syndicate file: tasks that send a message on a cron or at one instant
// (scheduler/tasks runs them). Checked here, with the rest of the file, at file:line:col.

const TASK_NAME = /^[A-Za-z0-9._-]{1,64}$/;
// `client` and `local` name no server user.
const RESERVED_USERS: ReadonlySet<string> = new Set(['client', 'local']);
// An instant with its offset: a bare local time would mean a different moment on each server.
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

export const DEFAULT_TIME_ZONE = 'UTC';

const instantSchema = z
  .string()
  .refine((text) => INSTANT.test(text) && !Number.isNaN(Date.parse(text)), { error: 'must be an ISO 8601 instant with its offset, e.g. "2026-12-24T09:00:00Z" or "2026-12-24T09:00:00+01:00"' })
  .transform((text) => Date.parse(text));

const scheduleSchema = z
  .object({
    /** Unique in the syndicate: the task's identity across restarts and edits of the file. */
    name: z.string().regex(TASK_NAME, 'must be 1-64 characters of letters, digits, ., _ or -'),
    cron: cronSchema().optional(),
    /** A one-time task's instant. */
    at: instantSchema.optional(),
    timezone: timeZoneSchema.optional(),
    message: z.string().min(1).max(100_000),
    /** "new": a session per run (the default); anything else: the one session every run goes to. */
    session: z.string().min(1).max(256).optional(),
    catch_up: z.enum(['none', 'last']).optional(),
    /** The server user the runs are for (their session, their memory); the admin by default. */
    owner: z
      .string()
      .regex(USER_ID, "must be a user id: 1-64 letters, digits, '.', '_' or '-'")
      .refine((id) => !RESERVED_USERS.has(id), { error: "names no server user ('client' and 'local' are reserved): name a user from `syndicate users list`" })
      .optional(),
  })
  .strict()
  .superRefine((task, ctx) => {
    if ((task.cron === undefined) === (task.at === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'set `cron` (e.g. "0 8 * * 1-5") or `at` (e.g. "2026-12-24T09:00:00Z"), one of them' });
    }
    if (task.timezone !== undefined && task.cron === undefined) ctx.addIssue({ code: 'custom', path: ['timezone'], message: 'only used with `cron`: `at` carries its own offset' });
  });

export const schedulesSchema = z
  .array(scheduleSchema)
  .superRefine((tasks, ctx) => {
    if (tasks.length > MAX_ACTIVE_TASKS) {
      ctx.addIssue({ code: 'custom', path: [], message: `declares ${tasks.length} tasks; at most ${MAX_ACTIVE_TASKS} tasks per syndicate: merge tasks, or move some to another syndicate` });
    }
    const first = new Map<string, number>();
    tasks.forEach((task, index) => {
      const seen = first.get(task.name);
      if (seen === undefined) first.set(task.name, index);
      else ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `task name '${task.name}' is already used by schedules[${seen}]: names are unique in a syndicate; rename one` });
    });
  });

export type ScheduleConfig = z.infer<typeof scheduleSchema>;

/** A declared task as the scheduler takes it: defaults filled in. */
export interface DeclaredSchedule {
  name: string;
  cron: string | null;
  timezone: string;
  at: number | null;
  message: string;
  /** null: a new session per run. */
  session: string | null;
  catchUp: CatchUp;
  /** null: the admin's. */
  owner: string | null;
}

export function declaredSchedules(schedules: readonly ScheduleConfig[] | undefined): DeclaredSchedule[] {
  return (schedules ?? []).map((task) => ({
    name: task.name,
    cron: task.cron ?? null,
    timezone: task.timezone ?? DEFAULT_TIME_ZONE,
    at: task.at ?? null,
    message: task.message,
    session: task.session === undefined || task.session === 'new' ? null : task.session,
    catchUp: task.catch_up ?? 'none',
    owner: task.owner ?? null,
  }));
}
