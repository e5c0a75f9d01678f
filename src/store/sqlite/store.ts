import type Database from 'better-sqlite3';
import type { TurnEvent } from '../../runtime/events.js';
import type { ReadEventsOptions, SessionRecord, Store, StoredEvent, UsageQuery, UsageRow } from '../store.js';
import { startCheckpointer } from './checkpointer.js';
import { openDatabase } from './connection.js';

export interface SqliteStoreOptions {
  /** Called with every SQL statement executed, parameters inlined (debugging; tests audit the append path). */
  onStatement?: (sql: string) => void;
}

export interface SqliteStore extends Store {
  readonly path: string;
}

interface QueuedAppend {
  sessionId: string;
  events: readonly TurnEvent[];
  payloads: readonly string[];
  resolve(lastSeq: number): void;
  reject(error: unknown): void;
}

interface EventRow {
  seq: number;
  payload: string;
}

interface SessionTail {
  number: number;
  /** null for a session without events. */
  lastSeq: number | null;
}

type UsageParams = [
  at: number,
  syndicate: string,
  sessionId: string | null,
  turnId: string,
  agent: string,
  provider: string,
  model: string,
  inputTokens: number,
  outputTokens: number,
  reasoningTokens: number,
  cachedInputTokens: number,
  latencyMs: number,
  outcome: string,
  turnStatus: string,
];

const SELECT_USAGE = `
  SELECT at, syndicate, session_id AS sessionId, turn_id AS turnId, agent, provider, model,
         input_tokens AS inputTokens, output_tokens AS outputTokens, reasoning_tokens AS reasoningTokens,
         cached_input_tokens AS cachedInputTokens, latency_ms AS latencyMs, outcome, turn_status AS turnStatus
  FROM usage_ledger`;

const LAST_SEQ = 'SELECT seq FROM events WHERE session_number = s.number ORDER BY seq DESC LIMIT 1';

// updatedAt and eventCount come from the session's last event (see the schema).
const SELECT_SESSIONS = `
  SELECT s.id, s.syndicate, s.created_at AS createdAt,
         coalesce(last.appended_at, s.created_at) AS updatedAt, coalesce(last.seq, 0) AS eventCount
  FROM sessions AS s
  LEFT JOIN events AS last ON last.session_number = s.number AND last.seq = (${LAST_SEQ})`;

function prepareStatements(db: Database.Database) {
  return {
    insertSession: db.prepare<[id: string, syndicate: string, createdAt: number]>(
      'INSERT INTO sessions (id, syndicate, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING',
    ),
    selectSession: db.prepare<[id: string], SessionRecord>(`${SELECT_SESSIONS} WHERE s.id = ?`),
    listSessions: db.prepare<[limit: number], SessionRecord>(`${SELECT_SESSIONS} ORDER BY updatedAt DESC, s.id LIMIT ?`),
    listSessionsOf: db.prepare<[syndicate: string, limit: number], SessionRecord>(
      `${SELECT_SESSIONS} WHERE s.syndicate = ? ORDER BY updatedAt DESC, s.id LIMIT ?`,
    ),
    selectTail: db.prepare<[id: string], SessionTail>(`SELECT s.number, (${LAST_SEQ}) AS lastSeq FROM sessions AS s WHERE s.id = ?`),
    insertEvent: db.prepare<
      [sessionNumber: number, seq: number, appendedAt: number, type: string, agent: string, turnId: string, at: number, payload: string]
    >('INSERT INTO events (session_number, seq, appended_at, type, agent, turn_id, at, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
    selectEvents: db.prepare<[sessionId: string, afterSeq: number, limit: number], EventRow>(
      `SELECT seq, payload FROM events
       WHERE session_number = (SELECT number FROM sessions WHERE id = ?) AND seq > ? ORDER BY seq LIMIT ?`,
    ),
    deleteEvents: db.prepare<[sessionId: string]>('DELETE FROM events WHERE session_number = (SELECT number FROM sessions WHERE id = ?)'),
    deleteSession: db.prepare<[id: string]>('DELETE FROM sessions WHERE id = ?'),
    insertUsage: db.prepare<UsageParams>(
      `INSERT INTO usage_ledger (at, syndicate, session_id, turn_id, agent, provider, model, input_tokens, output_tokens,
         reasoning_tokens, cached_input_tokens, latency_ms, outcome, turn_status)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    selectUsage: db.prepare<[since: number], UsageRow>(`${SELECT_USAGE} WHERE at >= ? ORDER BY at, id`),
    selectUsageOf: db.prepare<[since: number, syndicate: string], UsageRow>(`${SELECT_USAGE} WHERE at >= ? AND syndicate = ? ORDER BY at, id`),
  };
}

// SQLite reads a negative LIMIT as "no limit".
const NO_LIMIT = -1;

export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): SqliteStore {
  const db = openDatabase(path, options.onStatement);
  const sql = prepareStatements(db);
  const checkpointer = startCheckpointer(db, path);

  const createSession = db.transaction((id: string, syndicate: string): SessionRecord => {
    // Another process may have created it since the caller looked: then its row is kept.
    sql.insertSession.run(id, syndicate, Date.now());
    return sql.selectSession.get(id)!;
  });

  // Run IMMEDIATE: the batch reads the last seq before inserting, and a deferred transaction that
  // read first could not upgrade to a writer once another process had committed.
  const appendEvents = db.transaction((sessionId: string, events: readonly TurnEvent[], payloads: readonly string[]): number => {
    const tail = sql.selectTail.get(sessionId);
    if (tail === undefined) {
      throw new Error(`cannot append to session '${sessionId}': it was not opened (call openSession first)`);
    }
    const appendedAt = Date.now();
    const firstSeq = (tail.lastSeq ?? 0) + 1;
    events.forEach((event, index) => {
      sql.insertEvent.run(tail.number, firstSeq + index, appendedAt, event.type, event.agent, event.turnId, event.at, payloads[index]!);
    });
    return firstSeq + events.length - 1;
  });

  // Appends requested in the same microtask drain (concurrent turns) share one commit: a commit
  // costs ~12 syscalls here whatever its size. Each batch runs as a nested transaction (a
  // savepoint), so a bad batch fails alone, and every caller hears back only after the commit.
  const commitQueued = db.transaction((queue: readonly QueuedAppend[]): Array<{ seq: number } | { error: unknown }> =>
    queue.map((append) => {
      try {
        return { seq: appendEvents(append.sessionId, append.events, append.payloads) };
      } catch (error) {
        return { error };
      }
    }),
  );
  let queued: QueuedAppend[] = [];

  const commitAppends = (): void => {
    const queue = queued;
    queued = [];
    if (queue.length === 0) return;
    let outcomes: Array<{ seq: number } | { error: unknown }>;
    try {
      outcomes = commitQueued.immediate(queue);
    } catch (error) {
      for (const append of queue) append.reject(error);
      return;
    }
    checkpointer.committed();
    outcomes.forEach((outcome, i) => ('seq' in outcome ? queue[i]!.resolve(outcome.seq) : queue[i]!.reject(outcome.error)));
  };

  const deleteSession = db.transaction((id: string): boolean => {
    sql.deleteEvents.run(id);
    return sql.deleteSession.run(id).changes > 0;
  });

  const recordUsage = db.transaction((rows: readonly UsageRow[]): void => {
    for (const r of rows) {
      sql.insertUsage.run(
        r.at, r.syndicate, r.sessionId, r.turnId, r.agent, r.provider, r.model,
        r.inputTokens, r.outputTokens, r.reasoningTokens, r.cachedInputTokens, r.latencyMs, r.outcome, r.turnStatus,
      );
    }
  });

  return {
    path,
    async openSession(id: string, syndicate: string): Promise<SessionRecord> {
      // Read first: a session is opened once per turn and almost always exists already, and a read
      // takes no write lock.
      return sql.selectSession.get(id) ?? createSession(id, syndicate);
    },
    async getSession(id: string): Promise<SessionRecord | undefined> {
      return sql.selectSession.get(id);
    },
    async listSessions({ syndicate, limit = NO_LIMIT }: { syndicate?: string; limit?: number } = {}): Promise<SessionRecord[]> {
      return syndicate === undefined ? sql.listSessions.all(limit) : sql.listSessionsOf.all(syndicate, limit);
    },
    async deleteSession(id: string): Promise<boolean> {
      return deleteSession(id);
    },
    async appendEvents(sessionId: string, events: readonly TurnEvent[]): Promise<number> {
      // Serialised before the transaction: an event that cannot be stored fails the batch without
      // taking the write lock.
      const payloads = events.map((event) => JSON.stringify(event));
      return new Promise((resolve, reject) => {
        if (queued.length === 0) queueMicrotask(commitAppends);
        queued.push({ sessionId, events, payloads, resolve, reject });
      });
    },
    async readEvents(sessionId: string, { afterSeq = 0, limit = NO_LIMIT }: ReadEventsOptions = {}): Promise<StoredEvent[]> {
      return sql.selectEvents.all(sessionId, afterSeq, limit).map(
        (row): StoredEvent => ({ seq: row.seq, sessionId, event: JSON.parse(row.payload) as TurnEvent }),
      );
    },
    async recordUsage(rows: readonly UsageRow[]): Promise<void> {
      if (rows.length === 0) return;
      recordUsage.immediate(rows);
      checkpointer.committed();
    },
    async queryUsage({ since = Number.MIN_SAFE_INTEGER, syndicate }: UsageQuery = {}): Promise<UsageRow[]> {
      return syndicate === undefined ? sql.selectUsage.all(since) : sql.selectUsageOf.all(since, syndicate);
    },
    async close(): Promise<void> {
      commitAppends();
      await checkpointer.stop();
      if (db.open) db.close();
    },
  };
}
