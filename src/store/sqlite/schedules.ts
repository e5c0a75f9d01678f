import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import {
  INTERRUPTED_DETAIL,
  MAX_ACTIVE_TASKS,
  rowFromTask,
  taskFromRow,
  type ClaimFiring,
  type ClaimResult,
  type NewTask,
  type RunOutcome,
  type RunsToCancel,
  type ScheduledTask,
  type ScheduleStore,
  type TaskRow,
  type TaskRun,
} from '../schedules.js';

// Every write is an IMMEDIATE transaction: the write lock is taken before the state it checks is
// read, so two processes on one file never both decide one firing, nor both pass the task limit.

const TASK_COLUMNS = `id, syndicate, name, cron, timezone, at, message, session_id AS sessionId, owner_kind AS ownerKind, owner_id AS ownerId, run_as AS runAs,
  requested_by AS requestedBy, origin, active, catch_up AS catchUp, created_at AS createdAt, last_scheduled_for AS lastScheduledFor`;
const RUN_COLUMNS = `id, task_id AS taskId, syndicate, scheduled_for AS scheduledFor, started_at AS startedAt, ended_at AS endedAt, status,
  session_id AS sessionId, answer, detail, runner, lease_expires_at AS leaseExpiresAt`;

type TaskInsert = ReturnType<typeof rowFromTask>;

export function createSqliteSchedules(db: Database.Database): ScheduleStore {
  const sql = {
    insert: db.prepare<[TaskInsert]>(
      `INSERT INTO scheduled_tasks (id, syndicate, name, cron, timezone, at, message, session_id, owner_kind, owner_id, run_as, requested_by, origin, active, catch_up, created_at)
       VALUES (@id, @syndicate, @name, @cron, @timezone, @at, @message, @sessionId, @ownerKind, @ownerId, @runAs, @requestedBy, @origin, 1, @catchUp, @createdAt)`,
    ),
    upsertDeclared: db.prepare<[TaskInsert]>(
      `INSERT INTO scheduled_tasks (id, syndicate, name, cron, timezone, at, message, session_id, owner_kind, owner_id, run_as, requested_by, origin, active, catch_up, created_at)
       VALUES (@id, @syndicate, @name, @cron, @timezone, @at, @message, @sessionId, @ownerKind, @ownerId, @runAs, @requestedBy, 'file', 1, @catchUp, @createdAt)
       ON CONFLICT (id) DO UPDATE SET cron = excluded.cron, timezone = excluded.timezone, at = excluded.at, message = excluded.message,
         session_id = excluded.session_id, catch_up = excluded.catch_up, owner_kind = excluded.owner_kind, owner_id = excluded.owner_id, run_as = excluded.run_as,
         -- A fired one-time task stays deactivated; anything else the file declares is active.
         active = CASE WHEN scheduled_tasks.at IS NOT NULL AND scheduled_tasks.at = excluded.at AND scheduled_tasks.last_scheduled_for IS NOT NULL THEN 0 ELSE 1 END`,
    ),
    get: db.prepare<[id: string], TaskRow>(`SELECT ${TASK_COLUMNS} FROM scheduled_tasks WHERE id = ?`),
    byName: db.prepare<[syndicate: string, name: string], TaskRow>(`SELECT ${TASK_COLUMNS} FROM scheduled_tasks WHERE syndicate = ? AND name = ? AND active = 1`),
    countActive: db.prepare<[syndicate: string], { n: number }>('SELECT count(*) AS n FROM scheduled_tasks WHERE syndicate = ? AND active = 1'),
    list: db.prepare<[{ syndicates: string | null; all: number }], TaskRow>(
      `SELECT ${TASK_COLUMNS} FROM scheduled_tasks WHERE (@syndicates IS NULL OR syndicate IN (SELECT value FROM json_each(@syndicates))) AND (active = 1 OR @all = 1)
       ORDER BY created_at, id`,
    ),
    fileTasks: db.prepare<[syndicate: string], TaskRow>(`SELECT ${TASK_COLUMNS} FROM scheduled_tasks WHERE syndicate = ? AND origin = 'file' AND active = 1 ORDER BY created_at, id`),
    deactivate: db.prepare<[id: string]>('UPDATE scheduled_tasks SET active = 0 WHERE id = ? AND active = 1'),
    runOf: db.prepare<[taskId: string, scheduledFor: number], { id: string }>('SELECT id FROM task_runs WHERE task_id = ? AND scheduled_for = ?'),
    live: db.prepare<[taskId: string, now: number], { id: string }>("SELECT id FROM task_runs WHERE task_id = ? AND status = 'running' AND lease_expires_at > ? LIMIT 1"),
    insertRun: db.prepare<[TaskRun]>(
      `INSERT INTO task_runs (id, task_id, syndicate, scheduled_for, started_at, ended_at, status, session_id, answer, detail, runner, lease_expires_at)
       VALUES (@id, @taskId, @syndicate, @scheduledFor, @startedAt, @endedAt, @status, @sessionId, @answer, @detail, @runner, @leaseExpiresAt)`,
    ),
    advance: db.prepare<[{ scheduledFor: number; id: string }]>(
      `UPDATE scheduled_tasks SET last_scheduled_for = max(coalesce(last_scheduled_for, @scheduledFor), @scheduledFor),
         active = CASE WHEN at IS NULL THEN active ELSE 0 END WHERE id = @id`,
    ),
    renew: db.prepare<[expiresAt: number, id: string, runner: string]>("UPDATE task_runs SET lease_expires_at = ? WHERE id = ? AND runner = ? AND status = 'running'"),
    retake: db.prepare<[ClaimFiring & { leaseExpiresAt: number; detail: string }], TaskRun>(
      `UPDATE task_runs SET status = 'running', started_at = @now, ended_at = NULL, detail = NULL, runner = @runner, lease_expires_at = @leaseExpiresAt, session_id = @sessionId
       WHERE task_id = @taskId AND scheduled_for = @scheduledFor AND status = 'interrupted' AND detail = @detail RETURNING ${RUN_COLUMNS}`,
    ),
    finish: db.prepare<[RunOutcome & { id: string; runner: string }]>(
      `UPDATE task_runs SET status = @status, ended_at = @endedAt, answer = @answer, detail = @detail, runner = NULL, lease_expires_at = NULL
       WHERE id = @id AND runner = @runner AND status = 'running'`,
    ),
    expired: db.prepare<[now: number], TaskRun>(`SELECT ${RUN_COLUMNS} FROM task_runs WHERE status = 'running' AND lease_expires_at <= ?`),
    interruptOfTask: db.prepare<[{ detail: string; now: number; taskId: string }]>(
      `UPDATE task_runs SET status = 'interrupted', detail = @detail, ended_at = @now, runner = NULL, lease_expires_at = NULL
       WHERE task_id = @taskId AND status = 'running' AND lease_expires_at <= @now`,
    ),
    interrupt: db.prepare<[detail: string, endedAt: number, id: string]>(
      "UPDATE task_runs SET status = 'interrupted', detail = ?, ended_at = ?, runner = NULL, lease_expires_at = NULL WHERE id = ?",
    ),
    cancel: db.prepare<[{ taskId: string | null; sessionId: string | null; detail: string; now: number }], TaskRun>(
      `UPDATE task_runs SET status = 'interrupted', detail = @detail, ended_at = @now, runner = NULL, lease_expires_at = NULL
       WHERE status = 'running' AND (task_id = @taskId OR session_id = @sessionId) RETURNING ${RUN_COLUMNS}`,
    ),
    getRun: db.prepare<[id: string], TaskRun>(`SELECT ${RUN_COLUMNS} FROM task_runs WHERE id = ?`),
    runs: db.prepare<[{ syndicate: string | null; taskId: string | null; limit: number }], TaskRun>(
      `SELECT ${RUN_COLUMNS} FROM task_runs WHERE (@syndicate IS NULL OR syndicate = @syndicate) AND (@taskId IS NULL OR task_id = @taskId)
       ORDER BY scheduled_for DESC, id DESC LIMIT @limit`,
    ),
  };

  const interruptExpired = (now: number): TaskRun[] => {
    const detail = INTERRUPTED_DETAIL;
    const runs = sql.expired.all(now);
    for (const run of runs) sql.interrupt.run(detail, now, run.id);
    return runs.map((run) => ({ ...run, status: 'interrupted', detail, endedAt: now, runner: null, leaseExpiresAt: null }));
  };

  const add = db.transaction((task: NewTask) => {
    if (sql.byName.get(task.syndicate, task.name)) return { ok: false, reason: 'duplicate' } as const;
    if (sql.countActive.get(task.syndicate)!.n >= MAX_ACTIVE_TASKS) return { ok: false, reason: 'limit' } as const;
    sql.insert.run(rowFromTask(task));
    return { ok: true, task: taskFromRow(sql.get.get(task.id)!) } as const;
  });
  const syncDeclared = db.transaction((syndicate: string, declared: readonly NewTask[]) => {
    const displaced: ScheduledTask[] = [];
    const names = new Set(declared.map((task) => task.name));
    for (const row of sql.fileTasks.all(syndicate)) if (!names.has(row.name)) sql.deactivate.run(row.id);
    for (const task of declared) {
      const holder = sql.byName.get(syndicate, task.name);
      if (holder && holder.id !== task.id) {
        sql.deactivate.run(holder.id);
        displaced.push(taskFromRow({ ...holder, active: false }));
      }
      sql.upsertDeclared.run(rowFromTask(task));
    }
    return { tasks: sql.fileTasks.all(syndicate).map(taskFromRow), displaced };
  });
  const decide = db.transaction((taskId: string, scheduledFor: number, run: (task: TaskRow) => TaskRun): ClaimResult => {
    const task = sql.get.get(taskId);
    if (!task || !task.active) return { outcome: 'inactive' };
    if (sql.runOf.get(taskId, scheduledFor)) return { outcome: 'taken' };
    const record = run(task);
    sql.insertRun.run(record);
    sql.advance.run({ scheduledFor, id: taskId });
    return { outcome: record.status === 'running' ? 'claimed' : 'skipped', run: record };
  });
  const claim = db.transaction((firing: ClaimFiring): ClaimResult =>
    decide(firing.taskId, firing.scheduledFor, (task) => {
      // The task's own expired run (a dead process's) must not count as still going.
      sql.interruptOfTask.run({ detail: INTERRUPTED_DETAIL, now: firing.now, taskId: task.id });
      const base = { id: randomUUID(), taskId: task.id, syndicate: task.syndicate, scheduledFor: firing.scheduledFor, answer: null };
      if (sql.live.get(task.id, firing.now)) {
        return { ...base, status: 'skipped', startedAt: null, endedAt: null, sessionId: null, detail: 'the previous run was still going', runner: null, leaseExpiresAt: null };
      }
      return { ...base, status: 'running', startedAt: firing.now, endedAt: null, sessionId: firing.sessionId, detail: null, runner: firing.runner, leaseExpiresAt: firing.now + firing.leaseMs };
    }),
  );
  const interrupt = db.transaction(interruptExpired);
  const cancel = db.transaction((which: RunsToCancel, detail: string, now: number) =>
    sql.cancel.all({ taskId: 'taskId' in which ? which.taskId : null, sessionId: 'sessionId' in which ? which.sessionId : null, detail, now }),
  );
  // The watchers of this store object: SQLite has no notifications between processes (see ScheduleStore.watchCancels).
  const watchers = new Set<(runIds: readonly string[]) => void>();
  const heartbeat = db.transaction((runIds: readonly string[], runner: string, expiresAt: number) => runIds.filter((id) => sql.renew.run(expiresAt, id, runner).changes === 1));

  return {
    async add(task) {
      return add.immediate(task);
    },
    async syncDeclared(syndicate, declared) {
      return syncDeclared.immediate(syndicate, declared);
    },
    async get(id) {
      const row = sql.get.get(id);
      return row && taskFromRow(row);
    },
    async list(syndicates, options = {}) {
      return sql.list.all({ syndicates: syndicates === undefined ? null : JSON.stringify(syndicates), all: options.all ? 1 : 0 }).map(taskFromRow);
    },
    async deactivate(id) {
      return sql.deactivate.run(id).changes === 1;
    },
    async claim(firing) {
      return claim.immediate(firing);
    },
    async skip(taskId, scheduledFor, detail) {
      return decide.immediate(taskId, scheduledFor, (task) => ({
        id: randomUUID(), taskId, syndicate: task.syndicate, scheduledFor, startedAt: null, endedAt: null, status: 'skipped', sessionId: null, answer: null, detail, runner: null, leaseExpiresAt: null,
      }));
    },
    async heartbeat(runIds, runner, leaseExpiresAt) {
      return heartbeat.immediate(runIds, runner, leaseExpiresAt);
    },
    async retake(firing) {
      return sql.retake.get({ ...firing, leaseExpiresAt: firing.now + firing.leaseMs, detail: INTERRUPTED_DETAIL });
    },
    async finish(runId, runner, outcome) {
      return sql.finish.run({ ...outcome, id: runId, runner }).changes === 1;
    },
    async interruptExpired(now) {
      return interrupt.immediate(now);
    },
    async cancelRuns(which, detail, now) {
      const cancelled = cancel.immediate(which, detail, now);
      const ids = cancelled.map((run) => run.id);
      if (ids.length > 0) for (const watcher of watchers) watcher(ids);
      return cancelled;
    },
    async watchCancels(onCancel) {
      watchers.add(onCancel);
      return { stop: async () => void watchers.delete(onCancel) };
    },
    async getRun(id) {
      return sql.getRun.get(id);
    },
    async runs(query) {
      return sql.runs.all({ syndicate: query.syndicate ?? null, taskId: query.taskId ?? null, limit: query.limit });
    },
  };
}
