import { z } from 'zod';
import { CANCEL_TASK, GET_TASK_RUN, LIST_TASK_RUNS, LIST_TASKS, SCHEDULE_TASK } from '../../config/backgroundTools.js';
import { defineTool, type AnyTool } from '../../core/tool.js';
import type { BackgroundRun } from '../../runtime/background.js';
import type { ScheduledTask, ScheduleStore, TaskRun } from '../../store/schedules.js';
import { removalRefusal, removeTask } from './removeTask.js';
import { addRequestedTask } from './taskRequest.js';

// The agent tools of scheduled tasks, bound to one run: an agent schedules work for the user whose
// conversation it is in (their memory, their tasks), recorded as asked by the agent from that
// session. Each refusal is an error result the model reads (the tool throws), naming the fix.

export interface TaskToolBinding {
  schedules: ScheduleStore;
  /** The user the run's session belongs to (a conversation's, or a run of their task); undefined when it is nobody's (a background piece's, a dream's). */
  user: string | undefined;
  now(): number;
}

const MAX_RUNS = 50;

const scheduleInput = z
  .object({
    name: z.string().min(1).describe('A short unique name, e.g. "morning-brief" (letters, digits, . _ -).'),
    cron: z.string().optional().describe('When it recurs: a cron pattern, 5 fields or 6 with seconds first, e.g. "0 8 * * 1-5". Give cron or at.'),
    at: z.string().optional().describe('A one-time instant, ISO 8601 with its offset, e.g. "2026-12-24T09:00:00Z". Give cron or at.'),
    timezone: z.string().optional().describe('The IANA time zone the cron pattern is read in (default UTC).'),
    message: z.string().describe('What each run asks, as if the user sent it.'),
    session: z.enum(['new', 'this']).optional().describe('"new" (default): each run in a session of its own; "this": every run in this conversation.'),
    catch_up: z.enum(['none', 'last']).optional().describe('Firings missed while no server ran: "none" (default) skips them, "last" runs the latest once.'),
  })
  .strict();
const taskInput = z.object({ task_id: z.string().min(1).describe('The id schedule_task or list_tasks gave.') }).strict();
const runsInput = z.object({ task_id: z.string().min(1).describe('The id schedule_task or list_tasks gave.'), limit: z.number().int().min(1).max(MAX_RUNS).optional() }).strict();
const runInput = z.object({ run_id: z.string().min(1).describe('The id list_task_runs gave.') }).strict();

function taskView(task: ScheduledTask): Record<string, unknown> {
  const when = task.cron === null ? { at: new Date(task.at!).toISOString() } : { cron: task.cron, timezone: task.timezone };
  return { task_id: task.id, name: task.name, ...when, message: task.message, session: task.session === 'new' ? 'new' : task.session.fixed, active: task.active, origin: task.origin };
}

function runView(run: TaskRun): Record<string, unknown> {
  const at = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return { run_id: run.id, task_id: run.taskId, scheduled_for: at(run.scheduledFor), started_at: at(run.startedAt), ended_at: at(run.endedAt), status: run.status, answer: run.answer, detail: run.detail };
}

export function createTaskTools(run: BackgroundRun, binding: TaskToolBinding): ReadonlyMap<string, AnyTool> {
  const { schedules } = binding;
  const syndicate = run.syndicate.name;
  const userOf = (): string => {
    if (binding.user === undefined) throw new Error("scheduled tasks run for the user whose conversation asks for them, and this run is nobody's (a background piece or a dream): ask from a user's conversation or a run of their task");
    return binding.user;
  };
  /** A task of this syndicate that runs for this user; another user's is as unknown as a missing one. */
  const ownTask = async (taskId: string): Promise<ScheduledTask> => {
    const task = await schedules.get(taskId);
    if (task === undefined || task.syndicate !== syndicate || task.runAs !== userOf()) throw new Error(`there is no task '${taskId}' of yours in ${syndicate}: list_tasks shows your tasks and their ids`);
    return task;
  };
  const tools: AnyTool[] = [
    defineTool({
      name: SCHEDULE_TASK,
      description: 'Schedule a message to run later, once (at) or on a cron pattern, for the user of this conversation. Returns the task; each firing becomes a run whose answer list_task_runs shows.',
      inputSchema: scheduleInput,
      async execute(input) {
        const user = userOf();
        const session = input.session === 'this' ? run.sessionId : 'new';
        if (session === undefined) throw new Error('this conversation keeps no session (memory_system: internal-only), so runs cannot come into it: use session "new"');
        const added = await addRequestedTask(
          schedules,
          { syndicate, name: input.name, cron: input.cron, at: input.at, timezone: input.timezone, message: input.message, session, catchUp: input.catch_up },
          { owner: { kind: 'agent', id: run.agent.name }, runAs: user, requestedBy: run.sessionId ?? null },
          [syndicate],
          binding.now(),
        );
        if (!added.ok) throw new Error(added.error);
        return taskView(added.task);
      },
    }),
    defineTool({
      name: LIST_TASKS,
      description: "List the active scheduled tasks of this syndicate that run for this conversation's user.",
      inputSchema: z.object({}).strict(),
      async execute() {
        const user = userOf();
        return { tasks: (await schedules.list([syndicate])).filter((task) => task.runAs === user).map(taskView) };
      },
    }),
    defineTool({
      name: CANCEL_TASK,
      description: 'Cancel a scheduled task: it fires no more, and a run of it still going stops; its past runs stay readable.',
      inputSchema: taskInput,
      async execute({ task_id }) {
        const task = await ownTask(task_id);
        const refusal = removalRefusal(task);
        if (refusal !== undefined) throw new Error(refusal);
        const [latest] = await schedules.runs({ taskId: task_id, limit: 1 });
        // A run cancelling its own task finishes its answer: stopping it would cut off the very turn that asked.
        if (latest?.status === 'running' && latest.sessionId === run.sessionId) return { task_id, cancelled: await schedules.deactivate(task_id), stopped_run: null };
        const removed = await removeTask(schedules, task, `by the agent ${run.agent.name}`, binding.now());
        if (!removed.ok) throw new Error(removed.error);
        return { task_id, cancelled: removed.deactivated || removed.stopped !== undefined, stopped_run: removed.stopped?.id ?? null };
      },
    }),
    defineTool({
      name: LIST_TASK_RUNS,
      description: "A scheduled task's runs, newest first: when each fired, its status and answer.",
      inputSchema: runsInput,
      async execute({ task_id, limit }) {
        await ownTask(task_id);
        return { runs: (await schedules.runs({ taskId: task_id, limit: limit ?? 10 })).map(runView) };
      },
    }),
    defineTool({
      name: GET_TASK_RUN,
      description: "One run of a scheduled task, with its answer (or why it failed or was skipped) and the session it ran in.",
      inputSchema: runInput,
      async execute({ run_id }) {
        const found = await schedules.getRun(run_id);
        if (found === undefined) throw new Error(`there is no run '${run_id}': list_task_runs shows a task's runs and their ids`);
        await ownTask(found.taskId);
        return { ...runView(found), session_id: found.sessionId };
      },
    }),
  ];
  return new Map(tools.map((tool) => [tool.name, tool]));
}
