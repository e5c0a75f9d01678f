import type Database from 'better-sqlite3';
import type { TurnEvent } from '../../runtime/events.js';
import type { ReadEventsOptions, SessionRecord, Store, StoredEvent } from '../store.js';
import { openDatabase } from './connection.js';

export interface SqliteStoreOptions {
  /** Called with every SQL statement executed, parameters inlined (debugging; tests audit the append path). */
  onStatement?: (sql: string) => void;
}

export interface SqliteStore extends Store {
  readonly path: string;
}

interface EventRow {
  seq: number;
  payload: string;
}

const SESSION_COLUMNS = 'id, syndicate, created_at AS createdAt, updated_at AS updatedAt, event_count AS eventCount';

function prepareStatements(db: Database.Database) {
  return {
    insertSession: db.prepare<[id: string, syndicate: string, createdAt: number, updatedAt: number]>(
      'INSERT INTO sessions (id, syndicate, created_at, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING',
    ),
    selectSession: db.prepare<[id: string], SessionRecord>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = ?`),
    listSessions: db.prepare<[limit: number], SessionRecord>(
      `SELECT ${SESSION_COLUMNS} FROM sessions ORDER BY updated_at DESC, id LIMIT ?`,
    ),
    listSessionsOf: db.prepare<[syndicate: string, limit: number], SessionRecord>(
      `SELECT ${SESSION_COLUMNS} FROM sessions WHERE syndicate = ? ORDER BY updated_at DESC, id LIMIT ?`,
    ),
    touchSession: db.prepare<[updatedAt: number, added: number, id: string]>(
      'UPDATE sessions SET updated_at = ?, event_count = event_count + ? WHERE id = ?',
    ),
    insertEvent: db.prepare<[sessionId: string, type: string, agent: string, turnId: string, at: number, payload: string]>(
      'INSERT INTO events (session_id, type, agent, turn_id, at, payload) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    selectEvents: db.prepare<[sessionId: string, afterSeq: number, limit: number], EventRow>(
      'SELECT id AS seq, payload FROM events WHERE session_id = ? AND id > ? ORDER BY id LIMIT ?',
    ),
    deleteEvents: db.prepare<[sessionId: string]>('DELETE FROM events WHERE session_id = ?'),
    deleteSession: db.prepare<[id: string]>('DELETE FROM sessions WHERE id = ?'),
  };
}

// SQLite reads a negative LIMIT as "no limit".
const NO_LIMIT = -1;

export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): SqliteStore {
  const db = openDatabase(path, options.onStatement);
  const sql = prepareStatements(db);

  const openSession = db.transaction((id: string, syndicate: string): SessionRecord => {
    const now = Date.now();
    sql.insertSession.run(id, syndicate, now, now);
    // The row exists: inserted just above or already there, inside this transaction.
    return sql.selectSession.get(id)!;
  });

  // Touches the session first so an unknown id fails before any insert, and so the batch costs one
  // UPDATE plus one INSERT per event whatever the session's length.
  const appendEvents = db.transaction((sessionId: string, events: readonly TurnEvent[]): void => {
    if (sql.touchSession.run(Date.now(), events.length, sessionId).changes === 0) {
      throw new Error(`cannot append to session '${sessionId}': it was not opened (call openSession first)`);
    }
    for (const event of events) {
      sql.insertEvent.run(sessionId, event.type, event.agent, event.turnId, event.at, JSON.stringify(event));
    }
  });

  const deleteSession = db.transaction((id: string): boolean => {
    sql.deleteEvents.run(id);
    return sql.deleteSession.run(id).changes > 0;
  });

  return {
    path,
    async openSession(id: string, syndicate: string): Promise<SessionRecord> {
      return openSession(id, syndicate);
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
    async appendEvents(sessionId: string, events: readonly TurnEvent[]): Promise<void> {
      appendEvents(sessionId, events);
    },
    async readEvents(sessionId: string, { afterSeq = 0, limit = NO_LIMIT }: ReadEventsOptions = {}): Promise<StoredEvent[]> {
      return sql.selectEvents.all(sessionId, afterSeq, limit).map(
        (row): StoredEvent => ({ seq: row.seq, sessionId, event: JSON.parse(row.payload) as TurnEvent }),
      );
    },
    async close(): Promise<void> {
      if (db.open) db.close();
    },
  };
}
