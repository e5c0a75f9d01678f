import type Database from 'better-sqlite3';
import type { TaskPage, TaskQuery, TaskRecord, TaskRecords } from '../tasks.js';

/** A task as stored: its document serialised. */
type TaskRow = Omit<TaskRecord, 'document'> & { document: string };

const COLUMNS = 'id, agent, owner, context_id AS contextId, state, status_at AS statusAt, document';

// Optional filters are written as `(? IS NULL OR ...)` so one prepared statement serves every
// combination; the (agent, owner, status_at, id) index still drives the scan.
const FILTERS = `
  agent = @agent AND owner = @owner
  AND (@contextId IS NULL OR context_id = @contextId)
  AND (@state IS NULL OR state = @state)
  AND (@statusAfter IS NULL OR status_at > @statusAfter)`;

const AFTER_CURSOR = '(@afterAt IS NULL OR status_at < @afterAt OR (status_at = @afterAt AND id < @afterId))';

interface QueryParams {
  agent: string;
  owner: string;
  contextId: string | null;
  state: string | null;
  statusAfter: string | null;
  afterAt: string | null;
  afterId: string | null;
  limit: number;
}

function recordOf(row: TaskRow): TaskRecord {
  const { document, ...rest } = row;
  return { ...rest, document: JSON.parse(document) as unknown };
}

export function createSqliteTasks(db: Database.Database, committed: () => void): TaskRecords {
  const upsert = db.prepare<[TaskRow]>(
    `INSERT INTO a2a_tasks (id, agent, owner, context_id, state, status_at, document)
     VALUES (@id, @agent, @owner, @contextId, @state, @statusAt, @document)
     ON CONFLICT (id) DO UPDATE SET context_id = excluded.context_id, state = excluded.state,
       status_at = excluded.status_at, document = excluded.document
     WHERE a2a_tasks.agent = excluded.agent AND a2a_tasks.owner = excluded.owner`,
  );
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
    async save(task: TaskRecord): Promise<void> {
      const { changes } = upsert.run({ ...task, document: JSON.stringify(task.document) });
      if (changes === 0) throw new Error(`task '${task.id}' belongs to another agent or caller and cannot be saved over`);
      committed();
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
        statusAfter: query.statusAfter ?? null,
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
