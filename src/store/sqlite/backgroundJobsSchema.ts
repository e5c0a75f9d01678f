// Background jobs, their pieces and reports (an append to the migrations in schema.ts). The report's
// key is the table's primary key: a second report of one job cannot be written.
export const BACKGROUND_JOBS_MIGRATION = `
  CREATE TABLE background_jobs (
    id                TEXT PRIMARY KEY,
    origin_session_id TEXT NOT NULL,
    syndicate         TEXT NOT NULL,
    parent_job_id     TEXT,
    depth             INTEGER NOT NULL,
    status            TEXT NOT NULL,
    timeout_ms        INTEGER NOT NULL,
    created_at        INTEGER NOT NULL,
    ended_at          INTEGER
  );
  CREATE INDEX background_jobs_by_origin ON background_jobs (origin_session_id, created_at);
  CREATE INDEX background_jobs_by_parent ON background_jobs (parent_job_id);
  CREATE INDEX background_jobs_running ON background_jobs (status, created_at);
  CREATE TABLE background_pieces (
    job_id           TEXT NOT NULL REFERENCES background_jobs (id) ON DELETE CASCADE,
    piece_index      INTEGER NOT NULL,
    agent            TEXT NOT NULL,
    request          TEXT NOT NULL,
    session_id       TEXT NOT NULL,
    status           TEXT NOT NULL,
    answer           TEXT,
    error            TEXT,
    runner           TEXT,
    lease_expires_at INTEGER,
    attempts         INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (job_id, piece_index)
  );
  CREATE TABLE background_reports (
    key               TEXT PRIMARY KEY,
    job_id            TEXT NOT NULL UNIQUE,
    origin_session_id TEXT NOT NULL,
    syndicate         TEXT NOT NULL,
    text              TEXT NOT NULL,
    created_at        INTEGER NOT NULL,
    delivered_at      INTEGER
  );
`;

// Dream runs, one table of their own (a scheduled-task run table may absorb them later).
export const DREAM_RUNS_MIGRATION = `
  CREATE TABLE dream_runs (
    id           TEXT PRIMARY KEY,
    syndicate    TEXT NOT NULL,
    silo         TEXT NOT NULL,
    session_id   TEXT NOT NULL,
    status       TEXT NOT NULL,
    since        INTEGER NOT NULL,
    started_at   INTEGER NOT NULL,
    ended_at     INTEGER,
    journal_path TEXT,
    facts        INTEGER NOT NULL DEFAULT 0,
    sessions     INTEGER NOT NULL DEFAULT 0,
    error        TEXT
  );
  CREATE INDEX dream_runs_of_silo ON dream_runs (syndicate, silo, started_at);
`;

// A dream run's lease (DreamRunRecords): who runs it and until when, so a dead process's dream is interrupted.
export const DREAM_LEASES_MIGRATION = `
  ALTER TABLE dream_runs ADD COLUMN runner TEXT;
  ALTER TABLE dream_runs ADD COLUMN lease_expires_at INTEGER;
  CREATE INDEX dream_runs_running ON dream_runs (status, lease_expires_at);
`;
