// The migration that adds the scratchpad's table (MIGRATIONS in schema.ts; never edit it once
// shipped). Notes are short-lived working state, not history: keyed by the session id itself, as on
// SQLite, so a note can be written before the session's row exists. Names sort in byte order.
export const NOTES_MIGRATION = `
  CREATE TABLE session_notes (
    session_id text NOT NULL,
    name       text COLLATE "C" NOT NULL,
    text       text NOT NULL,
    bytes      integer NOT NULL,
    PRIMARY KEY (session_id, name)
  );
`;
