// The scratchpad (write_tmp, append_tmp, read_tmp): named plain-text notes private to one session, which last while the session has
// a turn running and are cleared when it goes idle. The limits are checked by the store, in the
// same transaction as the write, so concurrent turns of one session cannot overshoot them.

/** Per note, in UTF-8 bytes. */
export const MAX_NOTE_BYTES = 1024 * 1024;
export const MAX_NOTES_PER_SESSION = 64;

/** Letters, digits, `.`, `_` and `-`, starting with a letter or digit, at most 64 characters. */
export const NOTE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export type NoteWrite =
  | { ok: true; bytes: number }
  /** too-large: the note would pass MAX_NOTE_BYTES; too-many: it would be the session's MAX_NOTES_PER_SESSION + 1st. */
  | { ok: false; reason: 'too-large' | 'too-many'; bytes: number };

export interface SessionNotes {
  /** Replaces the note (`append`: adds to its end), creating it if the session has room; names are checked by the caller. */
  write(sessionId: string, name: string, text: string, mode: 'replace' | 'append'): Promise<NoteWrite>;
  /** Undefined when the session has no such note. */
  read(sessionId: string, name: string): Promise<string | undefined>;
  /** The session's notes by name, with their sizes in bytes. */
  list(sessionId: string): Promise<Array<{ name: string; bytes: number }>>;
  /** Deletes every note of the session. */
  clear(sessionId: string): Promise<void>;
}
