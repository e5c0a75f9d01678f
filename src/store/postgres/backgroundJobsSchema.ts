// Background jobs, their pieces and reports (an append to MIGRATIONS in schema.ts). The report's
// key is the table's primary key: a second report of one job cannot be written.
export const BACKGROUND_JOBS_MIGRATION = `
  CREATE TABLE background_jobs (
    id                text COLLATE "C" PRIMARY KEY,
    origin_session_id text NOT NULL,
    syndicate         text NOT NULL,
    parent_job_id     text COLLATE "C",
    depth             integer NOT NULL,
    status            text NOT NULL,
    timeout_ms        bigint NOT NULL,
    created_at        bigint NOT NULL,
    ended_at          bigint
  );
  CREATE INDEX background_jobs_by_origin ON background_jobs (origin_session_id, created_at);
  CREATE INDEX background_jobs_by_parent ON background_jobs (parent_job_id);
  CREATE INDEX background_jobs_running ON background_jobs (status, created_at);
  CREATE TABLE background_pieces (
    job_id           text COLLATE "C" NOT NULL REFERENCES background_jobs (id) ON DELETE CASCADE,
    piece_index      integer NOT NULL,
    agent            text NOT NULL,
    request          text NOT NULL,
    session_id       text NOT NULL,
    status           text NOT NULL,
    answer           text,
    error            text,
    runner           text,
    lease_expires_at bigint,
    attempts         integer NOT NULL DEFAULT 0,
    PRIMARY KEY (job_id, piece_index)
  );
  CREATE TABLE background_reports (
    key               text COLLATE "C" PRIMARY KEY,
    job_id            text COLLATE "C" NOT NULL UNIQUE,
    origin_session_id text NOT NULL,
    syndicate         text NOT NULL,
    text              text NOT NULL,
    created_at        bigint NOT NULL,
    delivered_at      bigint
  );
`;

// Dream runs, one table of their own (a scheduled-task run table may absorb them later).
export const DREAM_RUNS_MIGRATION = `
  CREATE TABLE dream_runs (
    id           text COLLATE "C" PRIMARY KEY,
    syndicate    text NOT NULL,
    silo         text NOT NULL,
    session_id   text NOT NULL,
    status       text NOT NULL,
    since        bigint NOT NULL,
    started_at   bigint NOT NULL,
    ended_at     bigint,
    journal_path text,
    facts        integer NOT NULL DEFAULT 0,
    sessions     integer NOT NULL DEFAULT 0,
    error        text
  );
  CREATE INDEX dream_runs_of_silo ON dream_runs (syndicate, silo, started_at);
`;

// A dream run's lease (DreamRunRecords): who runs it and until when, so a dead process's dream is interrupted.
export const DREAM_LEASES_MIGRATION = `
  ALTER TABLE dream_runs ADD COLUMN runner text;
  ALTER TABLE dream_runs ADD COLUMN lease_expires_at bigint;
  CREATE INDEX dream_runs_running ON dream_runs (status, lease_expires_at);
`;
