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

// Deciding firings in one round trip (firingDecisions.ts; an append to MIGRATIONS in schema.ts).
//
// decide_task_firing decides one: the statements of the transaction it replaced (eight round
// trips), in the same order, under the task row's lock. It is VOLATILE, so under READ COMMITTED each
// statement sees what was committed before it started, as the transaction's did: a claim that
// waited for the lock sees the run record the lock's holder wrote. (A single statement with CTEs
// would not: its snapshot predates the wait, so two firings of one task claimed at once could both
// start a run, breaking the overlap rule.) skip_detail set: the firing is recorded skipped with it
// (a missed firing). Otherwise it is claimed: the task's expired run is marked interrupted
// (interrupted_detail), then the firing is recorded skipped (overlap_detail) when a run of the task
// still holds its lease, else running. Returns the decision (inactive, taken, skipped, claimed) and
// the task's syndicate.
//
// decide_task_firings decides several claims, each by decide_task_firing as alone, in the order of
// task id then time, so every batch locks its task rows in one order and two batches never wait on
// each other in a cycle. Returns each claim's decision with its position in the arrays (n, from 1).
// CREATE OR REPLACE: a database taken back to an older version (tests) applies this again.
export const FIRING_DECISIONS_MIGRATION = `
  CREATE OR REPLACE FUNCTION decide_task_firing(task text, scheduled_for bigint, run_id text, now bigint, session text, runner text, lease_expires_at bigint,
    skip_detail text, overlap_detail text, interrupted_detail text)
  RETURNS TABLE (decision text, task_syndicate text) LANGUAGE plpgsql VOLATILE AS $$
  DECLARE
    found_task scheduled_tasks%ROWTYPE;
    skipped_why text := skip_detail;
  BEGIN
    SELECT * INTO found_task FROM scheduled_tasks t WHERE t.id = task FOR UPDATE;
    IF NOT FOUND OR NOT found_task.active THEN
      RETURN QUERY SELECT 'inactive', NULL::text;
      RETURN;
    END IF;
    IF EXISTS (SELECT 1 FROM task_runs r WHERE r.task_id = task AND r.scheduled_for = decide_task_firing.scheduled_for) THEN
      RETURN QUERY SELECT 'taken', found_task.syndicate;
      RETURN;
    END IF;
    IF skipped_why IS NULL THEN
      UPDATE task_runs r SET status = 'interrupted', detail = interrupted_detail, ended_at = now, runner = NULL, lease_expires_at = NULL
        WHERE r.task_id = task AND r.status = 'running' AND r.lease_expires_at <= now;
      IF EXISTS (SELECT 1 FROM task_runs r WHERE r.task_id = task AND r.status = 'running' AND r.lease_expires_at > now) THEN
        skipped_why := overlap_detail;
      END IF;
    END IF;
    IF skipped_why IS NULL THEN
      INSERT INTO task_runs AS r (id, task_id, syndicate, scheduled_for, started_at, status, session_id, runner, lease_expires_at)
        VALUES (run_id, task, found_task.syndicate, decide_task_firing.scheduled_for, now, 'running', session, runner, decide_task_firing.lease_expires_at);
    ELSE
      INSERT INTO task_runs AS r (id, task_id, syndicate, scheduled_for, status, detail)
        VALUES (run_id, task, found_task.syndicate, decide_task_firing.scheduled_for, 'skipped', skipped_why);
    END IF;
    UPDATE scheduled_tasks t SET last_scheduled_for = greatest(coalesce(t.last_scheduled_for, decide_task_firing.scheduled_for), decide_task_firing.scheduled_for),
      active = (t.at IS NULL AND t.active)
      WHERE t.id = task;
    RETURN QUERY SELECT CASE WHEN skipped_why IS NULL THEN 'claimed' ELSE 'skipped' END, found_task.syndicate;
  END
  $$;

  CREATE OR REPLACE FUNCTION decide_task_firings(tasks text[], scheduled_fors bigint[], run_ids text[], nows bigint[], sessions text[], runners text[],
    lease_expirations bigint[], overlap_detail text, interrupted_detail text)
  RETURNS TABLE (n bigint, decision text, task_syndicate text) LANGUAGE plpgsql VOLATILE AS $$
  DECLARE
    f record;
  BEGIN
    FOR f IN
      SELECT * FROM unnest(tasks, scheduled_fors, run_ids, nows, sessions, runners, lease_expirations)
        WITH ORDINALITY AS u(task, scheduled_for, run_id, now, session, runner, lease_expires_at, position)
      ORDER BY u.task, u.scheduled_for
    LOOP
      RETURN QUERY SELECT f.position, d.decision, d.task_syndicate
        FROM decide_task_firing(f.task, f.scheduled_for, f.run_id, f.now, f.session, f.runner, f.lease_expires_at, NULL, overlap_detail, interrupted_detail) AS d;
    END LOOP;
  END
  $$;
`;
