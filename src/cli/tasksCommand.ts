import { addRequestedTask, nextFiringOf, removeTask as removeStoredTask } from '../scheduler/tasks/index.js';
import { firstAdmin } from '../server/auth/userAdmin.js';
import { sessionIdFor } from '../server/sessionAccess.js';
import type { CatchUp, ScheduledTask, TaskRun } from '../store/schedules.js';
import { ExitCode } from './exitCodes.js';
import { loadDefinition } from './loadDefinition.js';
import { openPlatform, withExistingStore } from './openPlatform.js';
import { formatInstant, formatTable } from './text.js';
import { UsageError } from './usageError.js';

// `syndicate tasks add|list|remove|runs`: scheduled tasks in the store a server runs them from.
// A task added here is --user's (the admin's by default): its runs use that user's memory, and a
// fixed --session is one of that user's sessions. A running `serve` on the same store picks it up.

export interface TasksOptions {
  db?: string;
  json?: boolean;
}

export interface AddTaskOptions extends TasksOptions {
  name: string;
  message: string;
  cron?: string;
  at?: string;
  timezone?: string;
  session?: string;
  catchUp?: string;
  /** The server user the task is for; the admin by default. */
  user?: string;
}

export interface ListTasksOptions extends TasksOptions {
  all?: boolean;
}

export interface RunsOptions extends TasksOptions {
  limit: string;
}

const write = (text: string): void => void process.stdout.write(text);

const whenOf = (task: ScheduledTask): string => (task.cron !== null ? `${task.cron} (${task.timezone})` : formatInstant(task.at!));

const nextOf = (task: ScheduledTask, now: number): string => {
  const next = task.active ? nextFiringOf(task, now) : undefined;
  return next === undefined ? '-' : formatInstant(next);
};

function catchUpOf(value: string | undefined): CatchUp | undefined {
  if (value === undefined || value === 'none' || value === 'last') return value;
  throw new UsageError(`--catch-up must be none or last, got '${value}'`);
}

export async function addTask(syndicate: string, options: AddTaskOptions): Promise<number> {
  const definition = loadDefinition(syndicate, {});
  const platform = await openPlatform(options.db);
  try {
    const store = await platform.store();
    if (options.user !== undefined && !(await store.users.getUser(options.user))) {
      process.stderr.write(`Cannot add the task: there is no user '${options.user}' in ${platform.storeName}; add them first (syndicate users add ${options.user}), or leave out --user for the admin's task.\n`);
      return ExitCode.failed;
    }
    const user = options.user ?? (await firstAdmin(store.users));
    const session = options.session === undefined || options.session === 'new' ? options.session : sessionIdFor(user, options.session);
    const request = { syndicate: definition.name, name: options.name, cron: options.cron, at: options.at, timezone: options.timezone, message: options.message, session, catchUp: catchUpOf(options.catchUp) };
    const added = await addRequestedTask(store.schedules, request, { owner: { kind: 'user', id: user }, runAs: user, requestedBy: null }, [definition.name], Date.now());
    if (!added.ok) {
      process.stderr.write(`Cannot add the task: ${added.error}.\n`);
      return ExitCode.failed;
    }
    if (options.json) write(`${JSON.stringify(added.task)}\n`);
    else write(`Added task ${added.task.name} (${added.task.id}) to ${definition.name} for ${user}: ${whenOf(added.task)}. A running \`syndicate serve\` on ${platform.storeName} runs it.\n`);
    return ExitCode.ok;
  } finally {
    await platform.close();
  }
}

export function listTasks(options: ListTasksOptions): Promise<number> {
  return withExistingStore(options.db, async (store, storeName) => {
    const tasks = (await store?.schedules.list(undefined, { all: options.all })) ?? [];
    if (options.json) write(`${JSON.stringify(tasks)}\n`);
    else if (tasks.length === 0) write(`No ${options.all ? '' : 'active '}tasks in ${storeName}. Add one: syndicate tasks add <syndicate> --name <name> --cron "<pattern>" --message "<text>"\n`);
    else {
      const now = Date.now();
      const rows = tasks.map((t) => [t.id, t.syndicate, t.name, whenOf(t), t.runAs, t.active ? 'active' : 'inactive', nextOf(t, now), t.lastScheduledFor === null ? '-' : formatInstant(t.lastScheduledFor)]);
      write(`${formatTable([['ID', 'SYNDICATE', 'NAME', 'WHEN', 'FOR', 'STATE', 'NEXT FIRING', 'LAST FIRING'], ...rows])}\n`);
    }
    return ExitCode.ok;
  });
}

export function removeTask(id: string, options: TasksOptions): Promise<number> {
  return withExistingStore(options.db, async (store, storeName) => {
    const task = await store?.schedules.get(id);
    const removed = store && task && (await removeStoredTask(store.schedules, task, 'from the command line', Date.now()));
    if (removed && !removed.ok) {
      process.stderr.write(`Cannot remove task ${id}: ${removed.error}.\n`);
      return ExitCode.failed;
    }
    if (!removed || (!removed.deactivated && !removed.stopped)) {
      process.stderr.write(`No active task ${id} in ${storeName}, nor a run of it still going. See: syndicate tasks list\n`);
      return ExitCode.failed;
    }
    const stopped = removed.stopped ? ` Its run in flight (${removed.stopped.id}) is recorded interrupted, and the server running it stops it.` : '';
    if (options.json) write(`${JSON.stringify({ id, removed: true, stoppedRun: removed.stopped?.id ?? null })}\n`);
    else write(`Removed task ${id}: it fires no more; its runs stay listed (syndicate tasks runs ${id}).${stopped}\n`);
    return ExitCode.ok;
  });
}

export function listRuns(taskId: string | undefined, options: RunsOptions): Promise<number> {
  const limit = Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError(`--limit must be a whole number above 0, got '${options.limit}'`);
  return withExistingStore(options.db, async (store, storeName) => {
    const runs: TaskRun[] = (await store?.schedules.runs({ taskId, limit })) ?? [];
    if (options.json) write(`${JSON.stringify(runs)}\n`);
    else if (runs.length === 0) write(`No runs${taskId === undefined ? '' : ` of task ${taskId}`} in ${storeName}.\n`);
    else {
      const rows = runs.map((r) => [formatInstant(r.scheduledFor), r.status, r.taskId, r.sessionId ?? '-', (r.answer ?? r.detail ?? '').replace(/\s+/g, ' ').slice(0, 60)]);
      write(`${formatTable([['SCHEDULED', 'STATUS', 'TASK', 'SESSION', 'ANSWER / DETAIL'], ...rows])}\n`);
    }
    return ExitCode.ok;
  });
}
