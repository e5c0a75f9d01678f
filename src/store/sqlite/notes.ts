import type Database from 'better-sqlite3';
import { MAX_NOTE_BYTES, MAX_NOTES_PER_SESSION, type NoteWrite, type SessionNotes } from '../../core/notes.js';

interface NoteRow {
  text: string;
  bytes: number;
}

export function createSqliteNotes(db: Database.Database): SessionNotes {
  const sql = {
    select: db.prepare<[sessionId: string, name: string], NoteRow>('SELECT text, bytes FROM session_notes WHERE session_id = ? AND name = ?'),
    count: db.prepare<[sessionId: string], { count: number }>('SELECT count(*) AS count FROM session_notes WHERE session_id = ?'),
    upsert: db.prepare<[sessionId: string, name: string, text: string, bytes: number]>(
      `INSERT INTO session_notes (session_id, name, text, bytes) VALUES (?, ?, ?, ?)
       ON CONFLICT (session_id, name) DO UPDATE SET text = excluded.text, bytes = excluded.bytes`,
    ),
    list: db.prepare<[sessionId: string], { name: string; bytes: number }>('SELECT name, bytes FROM session_notes WHERE session_id = ? ORDER BY name'),
    any: db.prepare<[sessionId: string], { found: 1 }>('SELECT 1 AS found FROM session_notes WHERE session_id = ? LIMIT 1'),
    clear: db.prepare<[sessionId: string]>('DELETE FROM session_notes WHERE session_id = ?'),
  };

  // IMMEDIATE (below): the write lock is taken before the limits are read, so two processes writing
  // the same session's notes cannot both see room for one more.
  const write = db.transaction((sessionId: string, name: string, text: string, mode: 'replace' | 'append'): NoteWrite => {
    const existing = sql.select.get(sessionId, name);
    const added = Buffer.byteLength(text, 'utf8');
    const bytes = mode === 'append' && existing ? existing.bytes + added : added;
    if (bytes > MAX_NOTE_BYTES) return { ok: false, reason: 'too-large', bytes };
    if (!existing && sql.count.get(sessionId)!.count >= MAX_NOTES_PER_SESSION) return { ok: false, reason: 'too-many', bytes };
    sql.upsert.run(sessionId, name, mode === 'append' && existing ? existing.text + text : text, bytes);
    return { ok: true, bytes };
  });

  return {
    async write(sessionId, name, text, mode) {
      return write.immediate(sessionId, name, text, mode);
    },
    async read(sessionId, name) {
      return sql.select.get(sessionId, name)?.text;
    },
    async list(sessionId) {
      return sql.list.all(sessionId);
    },
    async clear(sessionId) {
      // Every turn ends with a clear, and most sessions have no notes: a read takes no write lock,
      // where even a DELETE that matches nothing locks the database and touches the WAL.
      if (sql.any.get(sessionId) !== undefined) sql.clear.run(sessionId);
    },
  };
}
