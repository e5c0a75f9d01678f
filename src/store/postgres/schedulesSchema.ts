// Scheduled tasks and their run records (an append to MIGRATIONS in schema.ts). A run is unique on
// (task, scheduled time): the record is the claim, so a firing cannot be decided twice by any
// number of processes. An active task's name is unique in its syndicate.
export const SCHEDULES_MIGRATION = `
  CREATE TABLE scheduled_tasks (
    id                 text COLLATE "C" PRIMARY KEY,
    syndicate          text NOT NULL,
    name               text NOT NULL,
    cron               text,
    timezone           text NOT NULL,
    at                 bigint,
    message            text NOT NULL,
    session_id         text,
    owner_kind         text NOT NULL,
    owner_id           text NOT NULL,
    run_as             text NOT NULL,
    requested_by       text,
    origin             text NOT NULL,
    active             boolean NOT NULL,
    catch_up           text NOT NULL,
    created_at         bigint NOT NULL,
    last_scheduled_for bigint
  );
  CREATE UNIQUE INDEX scheduled_tasks_active_name ON scheduled_tasks (syndicate, name) WHERE active;
  CREATE TABLE task_runs (
    id               text COLLATE "C" PRIMARY KEY,
    task_id          text COLLATE "C" NOT NULL REFERENCES scheduled_tasks (id) ON DELETE CASCADE,
    syndicate        text NOT NULL,
    scheduled_for    bigint NOT NULL,
    started_at       bigint,
    ended_at         bigint,
    status           text NOT NULL,
    session_id       text,
    answer           text,
    detail           text,
    runner           text,
    lease_expires_at bigint,
    UNIQUE (task_id, scheduled_for)
  );
  CREATE INDEX task_runs_running ON task_runs (status, lease_expires_at);
  CREATE INDEX task_runs_of_syndicate ON task_runs (syndicate, scheduled_for);
`;
