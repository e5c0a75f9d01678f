import { z } from 'zod';
import { addRequestedTask, removeTask } from '../../../scheduler/tasks/index.js';
import type { ScheduledTask } from '../../../store/schedules.js';
import type { Store } from '../../../store/store.js';
import { hasRole, type ApiCaller } from '../../caller.js';
import type { SyndicateRegistry } from '../../context.js';
import { defineRoute, fail, json, noContent, type AnyRoute } from '../../http/route.js';
import { clientSessionIdSchema, sessionIdFor } from '../../sessionAccess.js';

// Scheduled tasks over the API: the caller's (an admin: everyone's), created for the caller, who
// is recorded as the owner and whose memory the runs use. Another user's task answers 404.

const taskSchema = z.object({
  id: z.string(),
  syndicate: z.string(),
  name: z.string(),
  cron: z.string().nullable(),
  timezone: z.string(),
  at: z.number().nullable().describe('A one-time task\'s instant, ms since the epoch'),
  message: z.string(),
  session: z.union([z.literal('new'), z.object({ fixed: z.string() })]),
  owner: z.object({ kind: z.enum(['user', 'agent']), id: z.string() }),
  runAs: z.string(),
  requestedBy: z.string().nullable(),
  origin: z.enum(['file', 'runtime']),
  active: z.boolean(),
  catchUp: z.enum(['none', 'last']),
  createdAt: z.number(),
  lastScheduledFor: z.number().nullable(),
});

const runSchema = z.object({
  id: z.string(),
  taskId: z.string(),
  syndicate: z.string(),
  scheduledFor: z.number(),
  startedAt: z.number().nullable(),
  endedAt: z.number().nullable(),
  status: z.enum(['running', 'answered', 'failed', 'no_response', 'interrupted', 'skipped']),
  sessionId: z.string().nullable(),
  answer: z.string().nullable(),
  detail: z.string().nullable(),
  runner: z.string().nullable(),
  leaseExpiresAt: z.number().nullable(),
});

const idParams = z.object({ id: z.string().min(1).max(300) });

const maySee = (caller: ApiCaller, task: ScheduledTask): boolean => hasRole(caller, 'admin') || task.runAs === caller.userId;

const notFound = (id: string) => fail(404, `no task '${id}' of yours; list yours with GET /tasks`);

export function taskRoutes(store: () => Promise<Store>, registry: SyndicateRegistry): AnyRoute[] {
  const loaded = (): string[] => registry.list().flatMap((entry) => (entry.current ? [entry.current.name] : []));
  const visible = async (caller: ApiCaller, id: string): Promise<ScheduledTask | undefined> => {
    const task = await (await store()).schedules.get(id);
    return task && maySee(caller, task) ? task : undefined;
  };
  return [
    defineRoute({
      method: 'get',
      path: '/tasks',
      operationId: 'listTasks',
      summary: 'Your scheduled tasks, oldest first',
      description: "Members see the tasks that run for them; an admin sees everyone's. `all` includes removed and fired one-time tasks.",
      tag: 'Tasks',
      access: 'viewer',
      query: z.object({ all: z.enum(['true', 'false']).optional() }),
      responses: { 200: { description: 'The tasks', schema: z.object({ tasks: z.array(taskSchema) }) } },
      handle: async ({ query, caller }) => {
        const tasks = await (await store()).schedules.list(undefined, { all: query.all === 'true' });
        return json({ tasks: tasks.filter((task) => maySee(caller, task)) });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/tasks',
      operationId: 'createTask',
      summary: 'Schedules a message: on a cron (seconds allowed, in a time zone) or at one instant',
      description: 'The task is yours: its runs use your memory, and a fixed `session` is one of your sessions.',
      tag: 'Tasks',
      access: 'member',
      body: z.strictObject({
        syndicate: z.string().min(1).max(128).describe('A syndicate id or name'),
        name: z.string().min(1).max(64),
        cron: z.string().min(1).max(200).optional(),
        at: z.string().min(1).max(64).optional().describe('An ISO 8601 instant with its offset'),
        timezone: z.string().min(1).max(64).optional(),
        message: z.string().min(1).max(100_000),
        session: clientSessionIdSchema.optional().describe('"new" (a session per run, the default) or your session id'),
        catchUp: z.enum(['none', 'last']).optional(),
      }),
      responses: { 201: { description: 'The task', schema: z.object({ task: taskSchema }) }, 422: { description: 'The task was refused; the detail names the fix' } },
      handle: async ({ body, caller }) => {
        const syndicate = registry.get(body.syndicate)?.current?.name ?? body.syndicate;
        const session = body.session === undefined || body.session === 'new' ? body.session : sessionIdFor(caller.userId, body.session);
        const added = await addRequestedTask(
          (await store()).schedules,
          { ...body, syndicate, session },
          { owner: { kind: 'user', id: caller.userId }, runAs: caller.userId, requestedBy: null },
          loaded(),
          Date.now(),
        );
        return added.ok ? json({ task: added.task }, 201) : fail(422, added.error);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/tasks/:id',
      operationId: 'deleteTask',
      summary: 'Removes a task: it fires no more, a run of it still going stops (in whichever server runs it), and its runs stay readable',
      description: 'The stopped run is recorded `interrupted`, its detail saying the task was removed. A fired one-time task can be removed while its run goes, to stop that run.',
      tag: 'Tasks',
      access: 'member',
      params: idParams,
      responses: {
        204: { description: 'Removed' },
        404: { description: 'No such active task of yours, nor a run of it still going' },
        409: { description: "The task is declared in its syndicate's file (schedules:): remove it there" },
      },
      handle: async ({ params, caller }) => {
        const task = await visible(caller, params.id);
        if (!task) return notFound(params.id);
        const removed = await removeTask((await store()).schedules, task, `by ${caller.userId} through the API`, Date.now());
        if (!removed.ok) return fail(409, removed.error);
        return removed.deactivated || removed.stopped ? noContent() : notFound(params.id);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/tasks/:id/runs',
      operationId: 'listTaskRuns',
      summary: "The task's runs, newest firing first",
      tag: 'Tasks',
      access: 'viewer',
      params: idParams,
      query: z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) }),
      responses: { 200: { description: 'Run records', schema: z.object({ runs: z.array(runSchema) }) }, 404: { description: 'No such task of yours' } },
      handle: async ({ params, query, caller }) => {
        if (!(await visible(caller, params.id))) return notFound(params.id);
        return json({ runs: await (await store()).schedules.runs({ taskId: params.id, limit: query.limit }) });
      },
    }),
  ];
}
