// The scratchpad's table (store/notes.ts). Notes are short-lived working state, not history: keyed
// by the session id itself (not the sessions row, which may still be only in the journal).
export const NOTES_MIGRATION = `
  CREATE TABLE session_notes (
    session_id TEXT NOT NULL,
    name       TEXT NOT NULL,
    text       TEXT NOT NULL,
    bytes      INTEGER NOT NULL,
    PRIMARY KEY (session_id, name)
  ) WITHOUT ROWID;
`;
