import { coalesce } from '../../core/coalesce.js';
import type pg from 'pg';
import {
  INTERRUPTED_DETAIL,
  MAX_ACTIVE_TASKS,
  rowFromTask,
  taskFromRow,
  type NewTask,
  type ScheduledTask,
  type ScheduleStore,
  type TaskRow,
  type TaskRun,
} from '../schedules.js';
import type { Db } from './connection.js';
import { createFiringDecisions } from './firingDecisions.js';
import { cancelledIdsChannel } from './cancelledIds.js';

// A firing is decided under its task row's lock (firingDecisions.ts): two
// processes deciding firings of one task run one after the other, and the second sees the first's
// run record (the unique (task, scheduled_for) key would refuse a second one anyway). Adding a task takes a
// per-syndicate advisory lock, so two processes cannot both pass the limit. Milliseconds are
// bigint, read back as float8 so they arrive as numbers.

// A committed cancel is announced on this channel (the ids of the runs it cancelled), so the
// process running one stops its turn at once.
const cancels = cancelledIdsChannel('syndicate_task_run_cancels', 'cancelled task run ids');

const TASK_COLUMNS = `id, syndicate, name, cron, timezone, at::float8 AS at, message, session_id AS "sessionId", owner_kind AS "ownerKind",
  owner_id AS "ownerId", run_as AS "runAs", requested_by AS "requestedBy", origin, active, catch_up AS "catchUp", created_at::float8 AS "createdAt",
  last_scheduled_for::float8 AS "lastScheduledFor"`;
const RUN_COLUMNS = `id, task_id AS "taskId", syndicate, scheduled_for::float8 AS "scheduledFor", started_at::float8 AS "startedAt",
  ended_at::float8 AS "endedAt", status, session_id AS "sessionId", answer, detail, runner, lease_expires_at::float8 AS "leaseExpiresAt"`;

const INSERT_TASK = `INSERT INTO scheduled_tasks (id, syndicate, name, cron, timezone, at, message, session_id, owner_kind, owner_id, run_as, requested_by, origin, active, catch_up, created_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, true, $14, $15)`;

function taskParams(task: NewTask): unknown[] {
  const row = rowFromTask(task);
  return [row.id, row.syndicate, row.name, row.cron, row.timezone, row.at, row.message, row.sessionId, row.ownerKind, row.ownerId, row.runAs, row.requestedBy, row.origin, row.catchUp, row.createdAt];
}

async function lockSyndicate(client: pg.PoolClient, syndicate: string): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock(hashtext('syndicate.schedules:' || $1))", [syndicate]);
}

async function activeByName(client: pg.PoolClient, syndicate: string, name: string): Promise<TaskRow | undefined> {
  return (await client.query<TaskRow>(`SELECT ${TASK_COLUMNS} FROM scheduled_tasks WHERE syndicate = $1 AND name = $2 AND active`, [syndicate, name])).rows[0];
}

async function interruptExpired(db: Db, now: number): Promise<TaskRun[]> {
  const query = `UPDATE task_runs SET status = 'interrupted', detail = $2, ended_at = $1, runner = NULL, lease_expires_at = NULL
    WHERE status = 'running' AND lease_expires_at <= $1 RETURNING ${RUN_COLUMNS}`;
  return (await db.write<TaskRun>(query, [now, INTERRUPTED_DETAIL])).rows;
}

export function createPostgresSchedules(db: Db): ScheduleStore {
  const decisions = createFiringDecisions(db);

  // Firings taken from the shared queue together each read their task: one statement reads them all.
  const getTask = coalesce<string, ScheduledTask | undefined>(async (ids) => {
    const rows = await db.read<TaskRow>(`SELECT ${TASK_COLUMNS} FROM scheduled_tasks WHERE id = ANY($1::text[])`, [ids]);
    const tasks = new Map(rows.map((row) => [row.id, taskFromRow(row)]));
    return ids.map((id) => tasks.get(id));
  });

  return {
    async add(task) {
      return db.transaction(async (client) => {
        await lockSyndicate(client, task.syndicate);
        if (await activeByName(client, task.syndicate, task.name)) return { ok: false, reason: 'duplicate' } as const;
        const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM scheduled_tasks WHERE syndicate = $1 AND active', [task.syndicate]);
        if (rows[0]!.n >= MAX_ACTIVE_TASKS) return { ok: false, reason: 'limit' } as const;
        await client.query(INSERT_TASK, taskParams(task));
        const stored = (await client.query<TaskRow>(`SELECT ${TASK_COLUMNS} FROM scheduled_tasks WHERE id = $1`, [task.id])).rows[0]!;
        return { ok: true, task: taskFromRow(stored) } as const;
      });
    },
    async syncDeclared(syndicate, declared) {
      return db.transaction(async (client) => {
        await lockSyndicate(client, syndicate);
        const displaced: ScheduledTask[] = [];
        await client.query("UPDATE scheduled_tasks SET active = false WHERE syndicate = $1 AND origin = 'file' AND active AND NOT (name = ANY($2::text[]))", [
          syndicate,
          declared.map((task) => task.name),
        ]);
        for (const task of declared) {
          const holder = await activeByName(client, syndicate, task.name);
          if (holder && holder.id !== task.id) {
            await client.query('UPDATE scheduled_tasks SET active = false WHERE id = $1', [holder.id]);
            displaced.push(taskFromRow({ ...holder, active: false }));
          }
          await client.query(
            `${INSERT_TASK} ON CONFLICT (id) DO UPDATE SET cron = excluded.cron, timezone = excluded.timezone, at = excluded.at, message = excluded.message,
               session_id = excluded.session_id, catch_up = excluded.catch_up, owner_kind = excluded.owner_kind, owner_id = excluded.owner_id, run_as = excluded.run_as,
               -- A fired one-time task stays deactivated; anything else the file declares is active.
               active = NOT (scheduled_tasks.at IS NOT NULL AND scheduled_tasks.at = excluded.at AND scheduled_tasks.last_scheduled_for IS NOT NULL)`,
            taskParams({ ...task, origin: 'file' }),
          );
        }
        const { rows } = await client.query<TaskRow>(`SELECT ${TASK_COLUMNS} FROM scheduled_tasks WHERE syndicate = $1 AND origin = 'file' AND active ORDER BY created_at, id`, [syndicate]);
        return { tasks: rows.map(taskFromRow), displaced };
      });
    },
    get: getTask,
    async list(syndicates, options = {}) {
      const rows = await db.read<TaskRow>(`SELECT ${TASK_COLUMNS} FROM scheduled_tasks WHERE ($1::text[] IS NULL OR syndicate = ANY($1::text[])) AND (active OR $2) ORDER BY created_at, id`, [
        syndicates ?? null,
        options.all ?? false,
      ]);
      return rows.map(taskFromRow);
    },
    async deactivate(id) {
      return ((await db.write('UPDATE scheduled_tasks SET active = false WHERE id = $1 AND active', [id])).rowCount ?? 0) === 1;
    },
    claim: decisions.claim,
    skip: decisions.skip,
    async heartbeat(runIds, runner, leaseExpiresAt) {
      const { rows } = await db.write<{ id: string }>("UPDATE task_runs SET lease_expires_at = $3 WHERE id = ANY($1::text[]) AND runner = $2 AND status = 'running' RETURNING id", [
        runIds,
        runner,
        leaseExpiresAt,
      ]);
      const held = new Set(rows.map((row) => row.id));
      return runIds.filter((id) => held.has(id));
    },
    async retake(firing) {
      const { rows } = await db.write<TaskRun>(
        `UPDATE task_runs SET status = 'running', started_at = $3, ended_at = NULL, detail = NULL, runner = $4, lease_expires_at = $5, session_id = $6
         WHERE task_id = $1 AND scheduled_for = $2 AND status = 'interrupted' AND detail = $7 RETURNING ${RUN_COLUMNS}`,
        [firing.taskId, firing.scheduledFor, firing.now, firing.runner, firing.now + firing.leaseMs, firing.sessionId, INTERRUPTED_DETAIL],
      );
      return rows[0];
    },
    async finish(runId, runner, outcome) {
      const { rowCount } = await db.write(
        `UPDATE task_runs SET status = $3, ended_at = $4, answer = $5, detail = $6, runner = NULL, lease_expires_at = NULL WHERE id = $1 AND runner = $2 AND status = 'running'`,
        [runId, runner, outcome.status, outcome.endedAt, outcome.answer, outcome.detail],
      );
      return rowCount === 1;
    },
    async interruptExpired(now) {
      return interruptExpired(db, now);
    },
    async cancelRuns(which, detail, now) {
      return db.transaction(async (client) => {
        const { rows } = await client.query<TaskRun>(
          `UPDATE task_runs SET status = 'interrupted', detail = $3, ended_at = $4, runner = NULL, lease_expires_at = NULL
           WHERE status = 'running' AND (task_id = $1 OR session_id = $2) RETURNING ${RUN_COLUMNS}`,
          ['taskId' in which ? which.taskId : null, 'sessionId' in which ? which.sessionId : null, detail, now],
        );
        await cancels.notify(client, rows.map((run) => run.id));
        return rows;
      });
    },
    watchCancels(onCancel, onError) {
      return cancels.watch(db, onCancel, onError);
    },
    async getRun(id) {
      return (await db.read<TaskRun>(`SELECT ${RUN_COLUMNS} FROM task_runs WHERE id = $1`, [id]))[0];
    },
    async runs(query) {
      return db.read<TaskRun>(
        `SELECT ${RUN_COLUMNS} FROM task_runs WHERE ($1::text IS NULL OR syndicate = $1) AND ($2::text IS NULL OR task_id = $2) ORDER BY scheduled_for DESC, id DESC LIMIT $3`,
        [query.syndicate ?? null, query.taskId ?? null, query.limit],
      );
    },
  };
}
