// Scheduled tasks and their run records (an append to the migrations in schema.ts). A run is unique
// on (task, scheduled time): the record is the claim, so a firing cannot be decided twice. An
// active task's name is unique in its syndicate; deactivated tasks keep theirs for their runs.
export const SCHEDULES_MIGRATION = `
  CREATE TABLE scheduled_tasks (
    id                 TEXT PRIMARY KEY,
    syndicate          TEXT NOT NULL,
    name               TEXT NOT NULL,
    cron               TEXT,
    timezone           TEXT NOT NULL,
    at                 INTEGER,
    message            TEXT NOT NULL,
    session_id         TEXT,
    owner_kind         TEXT NOT NULL,
    owner_id           TEXT NOT NULL,
    run_as             TEXT NOT NULL,
    requested_by       TEXT,
    origin             TEXT NOT NULL,
    active             INTEGER NOT NULL,
    catch_up           TEXT NOT NULL,
    created_at         INTEGER NOT NULL,
    last_scheduled_for INTEGER
  );
  CREATE UNIQUE INDEX scheduled_tasks_active_name ON scheduled_tasks (syndicate, name) WHERE active = 1;
  CREATE TABLE task_runs (
    id               TEXT PRIMARY KEY,
    task_id          TEXT NOT NULL REFERENCES scheduled_tasks (id) ON DELETE CASCADE,
    syndicate        TEXT NOT NULL,
    scheduled_for    INTEGER NOT NULL,
    started_at       INTEGER,
    ended_at         INTEGER,
    status           TEXT NOT NULL,
    session_id       TEXT,
    answer           TEXT,
    detail           TEXT,
    runner           TEXT,
    lease_expires_at INTEGER,
    UNIQUE (task_id, scheduled_for)
  );
  CREATE INDEX task_runs_running ON task_runs (status, lease_expires_at);
  CREATE INDEX task_runs_of_syndicate ON task_runs (syndicate, scheduled_for);
`;
