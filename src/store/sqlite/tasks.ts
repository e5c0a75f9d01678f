import type Database from 'better-sqlite3';
import type { TaskPage, TaskQuery, TaskRecord, TaskRecords } from '../tasks.js';
import type { WriteJob } from './writeWorker.js';

/** A task as stored: its document serialised. */
type TaskRow = Omit<TaskRecord, 'document'> & { document: string };

const COLUMNS = 'id, agent, owner, context_id AS contextId, state, status_at AS statusAt, document';

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

// Saves requested together (a server writing out the tasks of one turn of its event loop) go in
// one write job: one commit, on the store's write thread once it is up. A commit per task was
// ~80 µs of the serving thread per SendMessage.
const SAVE_STATEMENTS = [
  `INSERT INTO a2a_tasks (id, agent, owner, context_id, state, status_at, document) VALUES (?, ?, ?, ?, ?, ?, ?)
   ON CONFLICT (id) DO UPDATE SET context_id = excluded.context_id, state = excluded.state,
     status_at = excluded.status_at, document = excluded.document
   WHERE a2a_tasks.agent = excluded.agent AND a2a_tasks.owner = excluded.owner`,
  // Read back in the same transaction: an upsert refused by its WHERE leaves no row of this owner.
  'SELECT 1 AS saved FROM a2a_tasks WHERE id = ? AND agent = ? AND owner = ?',
] as const;
const [UPSERT, OWNED] = [0, 1];

interface QueuedSave {
  task: TaskRecord;
  resolve(): void;
  reject(error: unknown): void;
}

function saveJob(saves: readonly QueuedSave[]): WriteJob {
  return {
    statements: SAVE_STATEMENTS,
    named: {},
    runs: saves.map(({ task: t }) => [UPSERT, [t.id, t.agent, t.owner, t.contextId, t.state, t.statusAt, JSON.stringify(t.document)]] as const),
    reads: saves.map(({ task: t }) => [OWNED, [t.id, t.agent, t.owner]] as const),
  };
}

function recordOf(row: TaskRow): TaskRecord {
  const { document, ...rest } = row;
  return { ...rest, document: JSON.parse(document) as unknown };
}

/** `write` runs a job on the store's write thread or, until that is up, on `db`. */
export function createSqliteTasks(db: Database.Database, write: (job: WriteJob) => Promise<unknown[]>): TaskRecords {
  let queued: QueuedSave[] = [];
  const writeQueued = (): void => {
    const saves = queued;
    queued = [];
    write(saveJob(saves)).then(
      (rows) =>
        saves.forEach(({ task, resolve, reject }, index) =>
          rows[index] === undefined ? reject(new Error(`task '${task.id}' belongs to another agent or caller and cannot be saved over`)) : resolve(),
        ),
      (error: unknown) => saves.forEach(({ reject }) => reject(error)),
    );
  };
  const selectOne = db.prepare<[agent: string, owner: string, id: string], TaskRow>(
    `SELECT ${COLUMNS} FROM a2a_tasks WHERE agent = ? AND owner = ? AND id = ?`,
  );
  const selectPage = db.prepare<[QueryParams], TaskRow>(
    `SELECT ${COLUMNS} FROM a2a_tasks WHERE ${FILTERS} AND ${AFTER_CURSOR} ORDER BY status_at DESC, id DESC LIMIT @limit`,
  );
  const countMatching = db.prepare<[Omit<QueryParams, 'afterAt' | 'afterId' | 'limit'>], { total: number }>(
    `SELECT count(*) AS total FROM a2a_tasks WHERE ${FILTERS}`,
  );

  return {
    save(task: TaskRecord): Promise<void> {
      return new Promise((resolve, reject) => {
        if (queued.length === 0) queueMicrotask(writeQueued);
        queued.push({ task, resolve, reject });
      });
    },
    async get(agent: string, owner: string, id: string): Promise<TaskRecord | undefined> {
      const row = selectOne.get(agent, owner, id);
      return row && recordOf(row);
    },
    async list(query: TaskQuery): Promise<TaskPage> {
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
    async inStates(states: readonly string[]): Promise<TaskRecord[]> {
      if (states.length === 0) return [];
      const rows = db
        .prepare<string[], TaskRow>(`SELECT ${COLUMNS} FROM a2a_tasks WHERE state IN (${states.map(() => '?').join(', ')}) ORDER BY status_at, id`)
        .all(...states);
      return rows.map(recordOf);
    },
  };
}
