// The migration that adds task leases and push configs (MIGRATIONS in schema.ts; never edit it once
// shipped). Lease times are ms since the epoch from each process's own clock, as on SQLite.
export const TASK_LEASES_MIGRATION = `
  -- The process that saved each task state: what it left running is its own while its lease lasts.
  ALTER TABLE a2a_tasks ADD COLUMN runner text NOT NULL DEFAULT '';
  -- One lease per process, renewed by its heartbeat.
  CREATE TABLE a2a_leases (
    runner     text PRIMARY KEY,
    expires_at bigint NOT NULL
  );
  -- The webhooks callers registered for task updates, scoped like their tasks. number keeps the
  -- order they were first saved in (an upsert keeps its row).
  CREATE TABLE a2a_push_configs (
    number       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    agent        text NOT NULL,
    owner        text NOT NULL,
    task_id      text NOT NULL,
    id           text NOT NULL,
    wire_version text NOT NULL,
    document     text NOT NULL,
    UNIQUE (agent, owner, task_id, id)
  );
`;
