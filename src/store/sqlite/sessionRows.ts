import type Database from 'better-sqlite3';
import { containsPattern, listedSession, prefixEnd, type ListedRow, type ListedSession, type ListSessionsOptions, type SessionRecord } from '../store.js';
import { NO_LIMIT } from './connection.js';

// The sessions and events as the database holds them: reading a session, its events and lists of
// sessions, and deleting them. What this process has journaled but not yet ingested is store.ts's.

export interface EventRow {
  seq: number;
  payload: string;
}

const LAST_SEQ = 'SELECT seq FROM events WHERE session_number = s.number ORDER BY seq DESC LIMIT 1';

// updatedAt and eventCount come from the session's last event (see the schema).
const selectSessions = (columns: string): string => `
  SELECT s.id, s.syndicate, s.created_at AS createdAt,
         coalesce(last.appended_at, s.created_at) AS updatedAt, coalesce(last.seq, 0) AS eventCount${columns}
  FROM sessions AS s
  LEFT JOIN events AS last ON last.session_number = s.number AND last.seq = (${LAST_SEQ})`;
const SELECT_SESSIONS = selectSessions('');
// A list's rows carry their titles too, and their numbers to find their last turn's end by.
const SELECT_LISTED = selectSessions(', s.title, s.number');

// The page's sessions, each with how its last ended turn ended (its last turn-end, found backwards
// through the session's events from the end), looked up for the page's rows only.
const withLastTurn = (page: string): string => `
  SELECT page.id, page.syndicate, page.createdAt, page.updatedAt, page.eventCount, page.title,
         CASE WHEN ended.payload ->> 'interrupted' THEN 'interrupted' ELSE ended.payload ->> 'status' END AS lastOutcome,
         ended.appended_at AS lastEndedAt
  FROM (${page}) AS page
  LEFT JOIN events AS ended ON ended.session_number = page.number
    AND ended.seq = (SELECT seq FROM events WHERE session_number = page.number AND type = 'turn-end' ORDER BY seq DESC LIMIT 1)
  ORDER BY page.updatedAt DESC, page.id`;

export interface SessionRows {
  session(id: string): SessionRecord | undefined;
  events(sessionId: string, afterSeq: number, limit: number): EventRow[];
  list(options: ListSessionsOptions): ListedSession[];
  /** Deletes the session with its events and notes; false when there was none. */
  delete(id: string): boolean;
  /** Deletes every session last updated before `before`, as delete does; returns their ids. */
  prune(before: number): string[];
}

export function createSessionRows(db: Database.Database): SessionRows {
  const selectSession = db.prepare<[id: string], SessionRecord>(`${SELECT_SESSIONS} WHERE s.id = ?`);
  const selectEvents = db.prepare<[sessionId: string, afterSeq: number, limit: number], EventRow>(
    `SELECT seq, payload FROM events
     WHERE session_number = (SELECT number FROM sessions WHERE id = ?) AND seq > ? ORDER BY seq LIMIT ?`,
  );
  const deleteEvents = db.prepare<[sessionId: string]>('DELETE FROM events WHERE session_number = (SELECT number FROM sessions WHERE id = ?)');
  const deleteSession = db.prepare<[id: string]>('DELETE FROM sessions WHERE id = ?');
  // Notes are keyed by the session id, not its row (notesSchema.ts): they go with the session by id.
  const deleteNotes = db.prepare<[sessionId: string]>('DELETE FROM session_notes WHERE session_id = ?');
  // A session's updatedAt is its last event's appended_at (see SELECT_SESSIONS).
  const selectStale = db.prepare<[before: number], { number: number; id: string }>(
    `SELECT s.number, s.id FROM sessions AS s
     WHERE coalesce((SELECT appended_at FROM events WHERE session_number = s.number ORDER BY seq DESC LIMIT 1), s.created_at) < ?`,
  );
  const deleteEventsOf = db.prepare<[number: number]>('DELETE FROM events WHERE session_number = ?');
  const deleteSessionNumbered = db.prepare<[number: number]>('DELETE FROM sessions WHERE number = ?');

  // One prepared statement per combination of filters, so each keeps its own plan (the id range
  // scans the sessions' id index; a catch-all `? IS NULL OR` would scan the table).
  const listStatements = new Map<string, Database.Statement<unknown[], ListedRow>>();
  const list = ({ syndicate, id, idPrefix, limit = NO_LIMIT, after, query }: ListSessionsOptions): ListedSession[] => {
    const where: string[] = [];
    const params: unknown[] = [];
    if (syndicate !== undefined) {
      where.push('s.syndicate = ?');
      params.push(syndicate);
    }
    if (id !== undefined) {
      where.push('s.id = ?');
      params.push(id);
    }
    if (idPrefix) {
      where.push('s.id >= ? AND s.id < ?');
      params.push(idPrefix, prefixEnd(idPrefix));
    }
    if (query) {
      // LIKE ignores the case of ASCII letters (case_sensitive_like is off).
      where.push("(s.title LIKE ? ESCAPE '\\' OR s.id LIKE ? ESCAPE '\\')");
      params.push(containsPattern(query), containsPattern(query));
    }
    const page = after === undefined ? '' : 'WHERE updatedAt < ? OR (updatedAt = ? AND id > ?)';
    if (after !== undefined) params.push(after.updatedAt, after.updatedAt, after.id);
    const key = `${syndicate !== undefined}${id !== undefined}${Boolean(idPrefix)}${Boolean(query)}${after !== undefined}`;
    let statement = listStatements.get(key);
    if (statement === undefined) {
      const filtered = `${SELECT_LISTED}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}`;
      statement = db.prepare<unknown[], ListedRow>(withLastTurn(`SELECT * FROM (${filtered}) ${page} ORDER BY updatedAt DESC, id LIMIT ?`));
      listStatements.set(key, statement);
    }
    return statement.all(...params, limit).map(listedSession);
  };

  const deleteOne = db.transaction((id: string): boolean => {
    deleteEvents.run(id);
    deleteNotes.run(id);
    return deleteSession.run(id).changes > 0;
  });

  const prune = db.transaction((before: number): string[] => {
    const stale = selectStale.all(before);
    for (const { number, id } of stale) {
      deleteEventsOf.run(number);
      deleteNotes.run(id);
      deleteSessionNumbered.run(number);
    }
    return stale.map(({ id }) => id);
  });

  return {
    session: (id) => selectSession.get(id),
    events: (sessionId, afterSeq, limit) => selectEvents.all(sessionId, afterSeq, limit),
    list,
    delete: (id) => deleteOne(id),
    prune: (before) => prune.immediate(before),
  };
}
