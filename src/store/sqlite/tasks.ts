import type Database from 'better-sqlite3';
import type { CancelRequest, CancelWatch, CancelWatchOptions, PushConfigRecord, TaskPage, TaskQuery, TaskRecord, TaskRecords } from '../tasks.js';

/** A task as stored: its document serialised. */
type TaskRow = Omit<TaskRecord, 'document'> & { document: string };
type PushConfigRow = Omit<PushConfigRecord, 'document'> & { document: string };

const COLUMNS = 'id, agent, owner, context_id AS contextId, state, status_at AS statusAt, document, runner';
const PUSH_COLUMNS = 'agent, owner, task_id AS taskId, id, wire_version AS wireVersion, document';

// Optional filters are written as `(? IS NULL OR ...)` so one prepared statement serves every
// combination; the (agent, owner, status_at, id) index still drives the scan.
const FILTERS = `
  agent = @agent AND owner = @owner
  AND (@contextId IS NULL OR context_id = @contextId)
  AND (@state IS NULL OR state = @state)
  AND (@statusSince IS NULL OR status_at >= @statusSince)`;

const AFTER_CURSOR = '(@afterAt IS NULL OR status_at < @afterAt OR (status_at = @afterAt AND id < @afterId))';

interface QueryParams {
  agent: string;
  owner: string;
  contextId: string | null;
  state: string | null;
  statusSince: string | null;
  afterAt: string | null;
  afterId: string | null;
  limit: number;
}

// How often each watching process looks for new cancel requests, and how long a request is kept
// (every watcher has looked many times by then).
const CANCEL_POLL_MS = 200;
const CANCEL_KEPT_MS = 60_000;

function recordOf<Row extends { document: string }>(row: Row): Omit<Row, 'document'> & { document: unknown } {
  const { document, ...rest } = row;
  return { ...rest, document: JSON.parse(document) as unknown };
}

/** How the store journals task states: see createSqliteTasks. */
export interface TaskJournal {
  /** Appends the state to the store's journal; resolves once it is written (durable, as events are). */
  journal(task: TaskRecord): Promise<void>;
  /** The last state journaled for the task and not yet in the table. */
  journaled(id: string): TaskRecord | undefined;
  /** Moves every journaled state into the table. */
  flush(): Promise<void>;
}

/**
 * Task states go through the store's event journal, in the same write(2) as the events of the turn
 * of the event loop, and into the table with the events' ingest. A save was a commit of its own on
 * the write thread before: with one client at a time, that round trip cost the A2A server ~100 µs
 * of its serving thread per SendMessage, and the write thread's commit competed for the second core.
 */
export function createSqliteTasks(db: Database.Database, tasks: TaskJournal): TaskRecords {
  const selectHolder = db.prepare<[id: string], Pick<TaskRecord, 'agent' | 'owner'>>('SELECT agent, owner FROM a2a_tasks WHERE id = ?');
  const selectOne = db.prepare<[agent: string, owner: string, id: string], TaskRow>(
    `SELECT ${COLUMNS} FROM a2a_tasks WHERE agent = ? AND owner = ? AND id = ?`,
  );
  const selectPage = db.prepare<[QueryParams], TaskRow>(
    `SELECT ${COLUMNS} FROM a2a_tasks WHERE ${FILTERS} AND ${AFTER_CURSOR} ORDER BY status_at DESC, id DESC LIMIT @limit`,
  );
  const countMatching = db.prepare<[Omit<QueryParams, 'afterAt' | 'afterId' | 'limit'>], { total: number }>(
    `SELECT count(*) AS total FROM a2a_tasks WHERE ${FILTERS}`,
  );
  // Leases and push configs are written here, on this thread's connection, each in a commit of its
  // own: a lease once per heartbeat and a config once per client call, too rare to journal.
  const upsertLease = db.prepare<[runner: string, expiresAt: number]>(
    'INSERT INTO a2a_leases (runner, expires_at) VALUES (?, ?) ON CONFLICT (runner) DO UPDATE SET expires_at = excluded.expires_at',
  );
  const deleteLease = db.prepare<[runner: string]>('DELETE FROM a2a_leases WHERE runner = ?');
  const upsertPushConfig = db.prepare<[PushConfigRow]>(
    `INSERT INTO a2a_push_configs (agent, owner, task_id, id, wire_version, document) VALUES (@agent, @owner, @taskId, @id, @wireVersion, @document)
     ON CONFLICT (agent, owner, task_id, id) DO UPDATE SET wire_version = excluded.wire_version, document = excluded.document`,
  );
  const selectPushConfigs = db.prepare<[agent: string, owner: string, taskId: string], PushConfigRow>(
    `SELECT ${PUSH_COLUMNS} FROM a2a_push_configs WHERE agent = ? AND owner = ? AND task_id = ? ORDER BY rowid`,
  );
  const insertCancel = db.prepare<[agent: string, taskId: string, requestedAt: number]>('INSERT INTO a2a_cancels (agent, task_id, requested_at) VALUES (?, ?, ?)');
  const deleteOldCancels = db.prepare<[before: number]>('DELETE FROM a2a_cancels WHERE requested_at < ?');
  const lastCancel = db.prepare<[], { number: number }>("SELECT coalesce(max(number), 0) AS number FROM a2a_cancels");
  const cancelsAfter = db.prepare<[after: number], CancelRequest & { number: number }>(
    'SELECT number, agent, task_id AS taskId FROM a2a_cancels WHERE number > ? ORDER BY number',
  );
  const deleteOnePushConfig = db.prepare<[agent: string, owner: string, taskId: string, id: string]>(
    'DELETE FROM a2a_push_configs WHERE agent = ? AND owner = ? AND task_id = ? AND id = ?',
  );

  return {
    async save(task: TaskRecord, options?: { isNew?: boolean }): Promise<void> {
      const holder = tasks.journaled(task.id) ?? (options?.isNew ? undefined : selectHolder.get(task.id));
      if (holder !== undefined && (holder.agent !== task.agent || holder.owner !== task.owner)) {
        throw new Error(`task '${task.id}' belongs to another agent or caller and cannot be saved over`);
      }
      await tasks.journal(task);
    },
    async get(agent: string, owner: string, id: string): Promise<TaskRecord | undefined> {
      const journaled = tasks.journaled(id);
      if (journaled !== undefined) return journaled.agent === agent && journaled.owner === owner ? journaled : undefined;
      const row = selectOne.get(agent, owner, id);
      return row && recordOf(row);
    },
    async list(query: TaskQuery): Promise<TaskPage> {
      await tasks.flush();
      const filters = {
        agent: query.agent,
        owner: query.owner,
        contextId: query.contextId ?? null,
        state: query.state ?? null,
        statusSince: query.statusSince ?? null,
      };
      const rows = selectPage.all({ ...filters, afterAt: query.after?.statusAt ?? null, afterId: query.after?.id ?? null, limit: query.limit });
      return { tasks: rows.map(recordOf), total: countMatching.get(filters)!.total };
    },
    async abandoned(states: readonly string[], now: number, leftBy?: string): Promise<TaskRecord[]> {
      if (states.length === 0) return [];
      await tasks.flush();
      const rows = db
        .prepare<unknown[], TaskRow>(
          `SELECT ${COLUMNS} FROM a2a_tasks AS t WHERE state IN (${states.map(() => '?').join(', ')})
           AND (runner = ? OR NOT EXISTS (SELECT 1 FROM a2a_leases AS l WHERE l.runner = t.runner AND l.expires_at > ?))
           ORDER BY status_at, id`,
        )
        .all(...states, leftBy ?? null, now);
      return rows.map(recordOf);
    },
    async renewLease(runner: string, expiresAt: number): Promise<void> {
      upsertLease.run(runner, expiresAt);
    },
    async endLease(runner: string): Promise<void> {
      deleteLease.run(runner);
    },
    async requestCancel({ agent, taskId }: CancelRequest): Promise<void> {
      const now = Date.now();
      db.transaction(() => {
        deleteOldCancels.run(now - CANCEL_KEPT_MS);
        insertCancel.run(agent, taskId, now);
      })();
    },
    async watchCancels(onCancel: (request: CancelRequest) => void, { onError }: CancelWatchOptions): Promise<CancelWatch> {
      let seen = lastCancel.get()!.number;
      const poll = (): void => {
        // The store closed under the watch: nothing more can be heard.
        if (!db.open) return clearInterval(timer);
        try {
          for (const { number, agent, taskId } of cancelsAfter.all(seen)) {
            seen = number;
            onCancel({ agent, taskId });
          }
        } catch (error) {
          // A busy or closed database: the next poll tries again.
          onError(error instanceof Error ? error : new Error(String(error)));
        }
      };
      const timer = setInterval(poll, CANCEL_POLL_MS).unref();
      return { stop: async () => clearInterval(timer) };
    },
    async savePushConfig(config: PushConfigRecord): Promise<void> {
      upsertPushConfig.run({ ...config, document: JSON.stringify(config.document) });
    },
    async pushConfigs(agent: string, owner: string, taskId: string): Promise<PushConfigRecord[]> {
      return selectPushConfigs.all(agent, owner, taskId).map(recordOf);
    },
    async deletePushConfig(agent: string, owner: string, taskId: string, id: string): Promise<void> {
      deleteOnePushConfig.run(agent, owner, taskId, id);
    },
  };
}
