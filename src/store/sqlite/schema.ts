import type Database from 'better-sqlite3';

// Migration i moves the schema from version i to i + 1; PRAGMA user_version records how many have
// run. Append new migrations, never edit one that has shipped.
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE sessions (
    id          TEXT PRIMARY KEY,
    syndicate   TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    event_count INTEGER NOT NULL DEFAULT 0
  );
  -- id is the rowid and doubles as the event's seq. No AUTOINCREMENT: it would add a write to
  -- sqlite_sequence per insert, and max(rowid) + 1 already keeps seq increasing within every live
  -- session (ids are only reused after the session holding the largest ones is deleted).
  -- payload holds the whole event; the other columns copy envelope fields so SQL can filter on them.
  CREATE TABLE events (
    id         INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions (id),
    type       TEXT NOT NULL,
    agent      TEXT NOT NULL,
    turn_id    TEXT NOT NULL,
    at         INTEGER NOT NULL,
    payload    TEXT NOT NULL
  );
  CREATE INDEX events_by_session ON events (session_id, id);
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

function userVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

export function migrate(db: Database.Database): void {
  // Checked outside a transaction first so an up-to-date database opens without taking the write lock.
  if (userVersion(db) === SCHEMA_VERSION) return;
  // IMMEDIATE takes the write lock before re-reading the version, so two processes opening a new
  // file at once cannot both run the same migration.
  db.transaction(() => {
    const current = userVersion(db);
    if (current > SCHEMA_VERSION) {
      throw new Error(
        `database schema version ${current} is newer than this build of syndicate supports (${SCHEMA_VERSION}); upgrade syndicate`,
      );
    }
    for (const sql of MIGRATIONS.slice(current)) db.exec(sql);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}
