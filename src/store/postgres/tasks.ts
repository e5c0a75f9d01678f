import { z } from 'zod';
import type { CancelRequest, CancelWatch, CancelWatchOptions, PushConfigRecord, TaskPage, TaskQuery, TaskRecord, TaskRecords } from '../tasks.js';
import type { Db } from './connection.js';
import { jsonPayload } from './listener.js';

/** A task as stored: its document serialised. */
type TaskRow = Omit<TaskRecord, 'document'> & { document: string };
type PushConfigRow = Omit<PushConfigRecord, 'document'> & { document: string };

const COLUMNS = 'id, agent, owner, context_id AS "contextId", state, status_at AS "statusAt", document, runner';
const PUSH_COLUMNS = 'agent, owner, task_id AS "taskId", id, wire_version AS "wireVersion", document';

// Optional filters are `($n IS NULL OR ...)`, so one statement serves every combination.
const FILTERS = `
  agent = $1 AND owner = $2
  AND ($3::text IS NULL OR context_id = $3)
  AND ($4::text IS NULL OR state = $4)
  AND ($5::text IS NULL OR status_at >= $5)`;

const AFTER_CURSOR = '($6::text IS NULL OR status_at < $6 OR (status_at = $6 AND id < $7))';

// Cancels go from the process a CancelTask reached to the task's runner as notifications: every
// process on the database listens, and the one running the task stops its turn.
const CANCEL_CHANNEL = 'syndicate_a2a_cancel';
const cancelRequestSchema = z.object({ agent: z.string(), taskId: z.string() });
const cancelPayloadSchema = jsonPayload(cancelRequestSchema);

function recordOf<Row extends { document: string }>(row: Row): Omit<Row, 'document'> & { document: unknown } {
  const { document, ...rest } = row;
  return { ...rest, document: JSON.parse(document) as unknown };
}

function taken(id: string): Error {
  return new Error(`task '${id}' belongs to another agent or caller and cannot be saved over`);
}

export function createPostgresTasks(db: Db): TaskRecords {
  return {
    async save(task: TaskRecord): Promise<void> {
      // One statement: the upsert replaces the row only when it is the same agent's and owner's,
      // so a task id taken meanwhile by another process is refused, not overwritten.
      const { rowCount } = await db.write(
        `INSERT INTO a2a_tasks (id, agent, owner, context_id, state, status_at, document, runner) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (id) DO UPDATE SET context_id = excluded.context_id, state = excluded.state, status_at = excluded.status_at,
           document = excluded.document, runner = excluded.runner
         WHERE a2a_tasks.agent = excluded.agent AND a2a_tasks.owner = excluded.owner`,
        [task.id, task.agent, task.owner, task.contextId, task.state, task.statusAt, JSON.stringify(task.document), task.runner],
      );
      if (rowCount === 0) throw taken(task.id);
    },
    async get(agent: string, owner: string, id: string): Promise<TaskRecord | undefined> {
      const [row] = await db.read<TaskRow>(`SELECT ${COLUMNS} FROM a2a_tasks WHERE agent = $1 AND owner = $2 AND id = $3`, [agent, owner, id]);
      return row && recordOf(row);
    },
    async list(query: TaskQuery): Promise<TaskPage> {
      const filters = [query.agent, query.owner, query.contextId ?? null, query.state ?? null, query.statusSince ?? null];
      const [rows, [count]] = await Promise.all([
        db.read<TaskRow>(`SELECT ${COLUMNS} FROM a2a_tasks WHERE ${FILTERS} AND ${AFTER_CURSOR} ORDER BY status_at DESC, id DESC LIMIT $8`, [
          ...filters, query.after?.statusAt ?? null, query.after?.id ?? null, query.limit,
        ]),
        db.read<{ total: number }>(`SELECT count(*) AS total FROM a2a_tasks WHERE ${FILTERS}`, filters),
      ]);
      return { tasks: rows.map(recordOf), total: count!.total };
    },
    async abandoned(states: readonly string[], now: number, leftBy?: string): Promise<TaskRecord[]> {
      if (states.length === 0) return [];
      const rows = await db.read<TaskRow>(
        `SELECT ${COLUMNS} FROM a2a_tasks AS t WHERE state = ANY($1::text[])
         AND (runner = $2 OR NOT EXISTS (SELECT 1 FROM a2a_leases AS l WHERE l.runner = t.runner AND l.expires_at > $3))
         ORDER BY status_at, id`,
        [states, leftBy ?? null, now],
      );
      return rows.map(recordOf);
    },
    async renewLease(runner: string, expiresAt: number): Promise<void> {
      await db.write(
        'INSERT INTO a2a_leases (runner, expires_at) VALUES ($1, $2) ON CONFLICT (runner) DO UPDATE SET expires_at = excluded.expires_at',
        [runner, expiresAt],
      );
    },
    async endLease(runner: string): Promise<void> {
      await db.write('DELETE FROM a2a_leases WHERE runner = $1', [runner]);
    },
    async requestCancel(request: CancelRequest): Promise<void> {
      await db.write('SELECT pg_notify($1, $2)', [CANCEL_CHANNEL, JSON.stringify(cancelRequestSchema.parse(request))]);
    },
    async watchCancels(onCancel: (request: CancelRequest) => void, { onError }: CancelWatchOptions): Promise<CancelWatch> {
      return db.listen({
        channel: CANCEL_CHANNEL,
        onPayload(payload) {
          const request = cancelPayloadSchema.safeParse(payload);
          // Only this store sends on the channel; anything else there is reported, not acted on.
          if (request.success) onCancel(request.data);
          else onError(new Error(`ignored a notification on ${CANCEL_CHANNEL} that is not a cancel request: ${payload.slice(0, 200)}`));
        },
        onError,
      });
    },
    async savePushConfig(config: PushConfigRecord): Promise<void> {
      await db.write(
        `INSERT INTO a2a_push_configs (agent, owner, task_id, id, wire_version, document) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (agent, owner, task_id, id) DO UPDATE SET wire_version = excluded.wire_version, document = excluded.document`,
        [config.agent, config.owner, config.taskId, config.id, config.wireVersion, JSON.stringify(config.document)],
      );
    },
    async pushConfigs(agent: string, owner: string, taskId: string): Promise<PushConfigRecord[]> {
      const rows = await db.read<PushConfigRow>(
        `SELECT ${PUSH_COLUMNS} FROM a2a_push_configs WHERE agent = $1 AND owner = $2 AND task_id = $3 ORDER BY number`,
        [agent, owner, taskId],
      );
      return rows.map(recordOf);
    },
    async deletePushConfig(agent: string, owner: string, taskId: string, id: string): Promise<void> {
      await db.write('DELETE FROM a2a_push_configs WHERE agent = $1 AND owner = $2 AND task_id = $3 AND id = $4', [agent, owner, taskId, id]);
    },
  };
}
