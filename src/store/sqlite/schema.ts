import type Database from 'better-sqlite3';
import { DOCUMENTS_MIGRATION } from './documentsSchema.js';
import { FACT_CODES_MIGRATION, FACT_RESTATES_MIGRATION, FACTS_MIGRATION } from './factsSchema.js';
import { TASK_CANCELS_MIGRATION, TASK_LEASES_MIGRATION } from './tasksSchema.js';
import { NOTES_MIGRATION } from './notesSchema.js';
import { USERS_MIGRATION } from './usersSchema.js';
import { SESSION_CLAIMS_MIGRATION } from './sessionClaims.js';
import { BACKGROUND_JOBS_MIGRATION, DREAM_LEASES_MIGRATION, DREAM_RUNS_MIGRATION } from './backgroundJobsSchema.js';
import { SCHEDULES_MIGRATION } from './schedulesSchema.js';

// Migration i moves the schema from version i to i + 1; PRAGMA user_version records how many have
// run. Append new migrations, never edit one that has shipped.
const MIGRATIONS: readonly string[] = [
  `
  -- number is the key events refer to: an integer keeps their index entries small.
  CREATE TABLE sessions (
    number     INTEGER PRIMARY KEY,
    id         TEXT NOT NULL UNIQUE,
    syndicate  TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  -- Laid out for a cheap commit. Rows are stored in append order (id), so an append lands on the
  -- last leaf of the table whichever session it is for, and SQLite splits a full last leaf by just
  -- starting a new one; the commit's other page is a leaf of the small events_by_session index.
  -- Keyed by session instead (a WITHOUT ROWID table on (session, seq)), an append lands mid-tree,
  -- where a full leaf of these large rows is rebalanced with its neighbours on almost every commit:
  -- 2.7 to 4.6 pages written per 3-event commit against 2.7 to 2.9 for this layout.
  -- seq runs 1, 2, 3... within a session with no gaps (batches are atomic, sessions are deleted
  -- whole), so the last event's seq is the session's event count and its appended_at the session's
  -- updatedAt: appends never write the sessions row.
  -- payload holds the whole event; type, agent, turn_id and at copy envelope fields for SQL filters.
  CREATE TABLE events (
    id             INTEGER PRIMARY KEY,
    session_number INTEGER NOT NULL REFERENCES sessions (number),
    seq            INTEGER NOT NULL,
    appended_at    INTEGER NOT NULL,
    type           TEXT NOT NULL,
    agent          TEXT NOT NULL,
    turn_id        TEXT NOT NULL,
    at             INTEGER NOT NULL,
    payload        TEXT NOT NULL
  );
  CREATE UNIQUE INDEX events_by_session ON events (session_number, seq);
  `,
  `
  -- The usage ledger: one row per model call, written in one batch when its turn ends, so
  -- turn_status is known at insert time and rows are never updated. Not tied to sessions:
  -- internal-only syndicates have none (session_id is null), and deleting a conversation must not
  -- erase what it cost.
  CREATE TABLE usage_ledger (
    id                  INTEGER PRIMARY KEY,
    at                  INTEGER NOT NULL,
    syndicate           TEXT NOT NULL,
    session_id          TEXT,
    turn_id             TEXT NOT NULL,
    agent               TEXT NOT NULL,
    provider            TEXT NOT NULL,
    model               TEXT NOT NULL,
    input_tokens        INTEGER NOT NULL,
    output_tokens       INTEGER NOT NULL,
    reasoning_tokens    INTEGER NOT NULL,
    cached_input_tokens INTEGER NOT NULL,
    latency_ms          REAL NOT NULL,
    outcome             TEXT NOT NULL,
    turn_status         TEXT NOT NULL
  );
  CREATE INDEX usage_ledger_by_time ON usage_ledger (at);
  `,
  `
  -- Which generation of each append journal (store/sqlite/journal.ts) is already in the events
  -- table, so a journal replayed after a crash never adds a batch twice.
  CREATE TABLE journals_ingested (
    name       TEXT PRIMARY KEY,
    generation INTEGER NOT NULL
  );
  `,
  `
  -- A2A tasks: the whole task as a JSON document, plus the columns ListTasks filters and pages on.
  -- id is global (servers mint UUIDs), and agent + owner scope every read, so a caller never sees
  -- another caller's task. status_at is ISO 8601 UTC text, which sorts in time order.
  CREATE TABLE a2a_tasks (
    id         TEXT PRIMARY KEY,
    agent      TEXT NOT NULL,
    owner      TEXT NOT NULL,
    context_id TEXT NOT NULL,
    state      TEXT NOT NULL,
    status_at  TEXT NOT NULL,
    document   TEXT NOT NULL
  );
  CREATE INDEX a2a_tasks_by_owner ON a2a_tasks (agent, owner, status_at, id);
  CREATE INDEX a2a_tasks_by_state ON a2a_tasks (state);
  `,
  DOCUMENTS_MIGRATION,
  FACTS_MIGRATION,
  FACT_CODES_MIGRATION,
  TASK_LEASES_MIGRATION,
  NOTES_MIGRATION,
  `
  -- The skills each ledger row's turn activated, as JSON text (store/usageSkills.ts); NULL when none.
  ALTER TABLE usage_ledger ADD COLUMN skills TEXT;
  `,
  TASK_CANCELS_MIGRATION,
  SESSION_CLAIMS_MIGRATION,
  FACT_RESTATES_MIGRATION,
  BACKGROUND_JOBS_MIGRATION,
  DREAM_RUNS_MIGRATION,
  USERS_MIGRATION,
  SCHEDULES_MIGRATION,
  DREAM_LEASES_MIGRATION,
  `
  -- A session's title (store/sessionTitle.ts), set when its first events are ingested, so a list of
  -- sessions reads no events. The backfill applies the same rule to the events stored (a NUL
  -- escape becomes U+FFFD first, as sessionTitle has it; substr counts code points).
  ALTER TABLE sessions ADD COLUMN title TEXT;
  UPDATE sessions SET title = substr(replace(first.payload, '\\u0000', '\\ufffd') ->> 'input', 1, 500)
  FROM events AS first
  WHERE first.session_number = sessions.number AND first.seq = 1 AND first.type = 'turn-start';
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
