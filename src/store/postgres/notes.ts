import { MAX_NOTE_BYTES, MAX_NOTES_PER_SESSION, type NoteWrite, type SessionNotes } from '../../core/notes.js';
import type { Db, PreparedSql } from './connection.js';

// pg_advisory_xact_lock class key of a session's notes (the second key is the session id's hash).
// Under READ COMMITTED two transactions adding different names would both count room for one more;
// holding this lock while the limits are read and the note is written serialises writers of one
// session across processes. A hash collision only makes two sessions wait for each other.
const NOTES_LOCK = 1_853_189_228;

// Run at the end of every turn (with its last batch: store.ts), so prepared.
export const CLEAR_NOTES: PreparedSql = { name: 'syndicate_clear_notes', text: 'DELETE FROM session_notes WHERE session_id = $1' };

export function createPostgresNotes(db: Db): SessionNotes {
  return {
    async write(sessionId, name, text, mode): Promise<NoteWrite> {
      return db.transaction(async (client) => {
        await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [NOTES_LOCK, sessionId]);
        const { rows } = await client.query<{ bytes: number; count: number; present: boolean }>(
          `SELECT coalesce(max(bytes) FILTER (WHERE name = $2), 0) AS bytes, count(*)::int AS count, bool_or(name = $2) IS TRUE AS present
           FROM session_notes WHERE session_id = $1`,
          [sessionId, name],
        );
        const existing = rows[0]!;
        const added = Buffer.byteLength(text, 'utf8');
        const append = mode === 'append' && existing.present;
        const bytes = append ? existing.bytes + added : added;
        if (bytes > MAX_NOTE_BYTES) return { ok: false, reason: 'too-large', bytes };
        if (!existing.present && existing.count >= MAX_NOTES_PER_SESSION) return { ok: false, reason: 'too-many', bytes };
        await client.query(
          `INSERT INTO session_notes (session_id, name, text, bytes) VALUES ($1, $2, $3, $4)
           ON CONFLICT (session_id, name) DO UPDATE SET text = CASE WHEN $5 THEN session_notes.text || excluded.text ELSE excluded.text END, bytes = excluded.bytes`,
          [sessionId, name, text, bytes, append],
        );
        return { ok: true, bytes };
      });
    },
    async read(sessionId, name) {
      return (await db.read<{ text: string }>('SELECT text FROM session_notes WHERE session_id = $1 AND name = $2', [sessionId, name]))[0]?.text;
    },
    async list(sessionId) {
      return db.read<{ name: string; bytes: number }>('SELECT name, bytes FROM session_notes WHERE session_id = $1 ORDER BY name', [sessionId]);
    },
    async clear(sessionId) {
      await db.write(CLEAR_NOTES, [sessionId]);
    },
  };
}
