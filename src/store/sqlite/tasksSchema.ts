// Task leases and push configs (an append to the migrations in schema.ts).
export const TASK_LEASES_MIGRATION = `
  -- The process that saved each task state: what it left running is its own while its lease lasts.
  ALTER TABLE a2a_tasks ADD COLUMN runner TEXT NOT NULL DEFAULT '';
  -- One lease per process, renewed by its heartbeat; expires_at is ms since the epoch.
  CREATE TABLE a2a_leases (
    runner     TEXT PRIMARY KEY,
    expires_at INTEGER NOT NULL
  );
  -- The webhooks callers registered for task updates, scoped like their tasks; listed in rowid
  -- order, which is the order they were first saved in (an upsert keeps its row).
  CREATE TABLE a2a_push_configs (
    agent        TEXT NOT NULL,
    owner        TEXT NOT NULL,
    task_id      TEXT NOT NULL,
    id           TEXT NOT NULL,
    wire_version TEXT NOT NULL,
    document     TEXT NOT NULL,
    UNIQUE (agent, owner, task_id, id)
  );
`;

// Cancel requests for other processes' tasks (an append to the migrations in schema.ts). SQLite
// has no notifications: every process polls the rows added since it last looked. AUTOINCREMENT
// keeps numbers rising after old rows are deleted, so a poll's cursor never skips a new one.
export const TASK_CANCELS_MIGRATION = `
  CREATE TABLE a2a_cancels (
    number       INTEGER PRIMARY KEY AUTOINCREMENT,
    agent        TEXT NOT NULL,
    task_id      TEXT NOT NULL,
    requested_at INTEGER NOT NULL
  );
`;
