import { SELECT_WANTED_CLAIMS } from './sessionClaims.js';
import type { WriteJob } from './writeWorker.js';

// The write job that moves a journal's batches into the database. It carries the journal's lines
// as one JSON array and SQL does the rest: handing the write thread one string costs ~0.1 ms per
// thousand events, where the same rows as arrays of parameters cost ~1-2 ms to copy across.
//
// Each event's seq continues from what the session holds when the job commits: the seq its writer
// gave it, since a writer journals a session's batches only while it holds the session's claim
// (sessionClaims.ts). Replayed journals of a dead writer are placed the same way.

const LAST_SEQ = 'SELECT seq FROM events WHERE session_number = s.number ORDER BY seq DESC LIMIT 1';

const STATEMENTS = [
  // A session created in the journal, or deleted by another process since (the batch re-creates
  // it rather than being lost); and the title of the batch holding a session's first events,
  // which may come in a later job than its creation. WHERE true: without it SQLite would read ON
  // CONFLICT as a join.
  `INSERT INTO sessions (id, syndicate, created_at, title)
   SELECT value->>'session', value->>'syndicate', min(value->>'appendedAt'), max(value->>'title') FROM json_each(@batches) WHERE true
   GROUP BY 1 ORDER BY min(key) ON CONFLICT (id) DO UPDATE SET title = excluded.title WHERE excluded.title IS NOT NULL AND sessions.title IS NULL`,
  // A batch's own fields are read once per batch, in a MATERIALIZED CTE: read from batch.value
  // beside each event, they made SQLite render and parse the whole batch again for every event, so
  // one batch of n events cost O(n²): 10,000 events took 83-199 s, now 0.2-0.7 s, and the usual
  // batches of 3 cost no more. Without MATERIALIZED SQLite inlines the CTE: quadratic again.
  `INSERT INTO events (session_number, seq, appended_at, type, agent, turn_id, at, payload)
   WITH batch AS MATERIALIZED (
     SELECT key, value->>'session' AS session, value->>'appendedAt' AS appended_at, value->'events' AS events FROM json_each(@batches)
   )
   SELECT s.number, coalesce((${LAST_SEQ}), 0) + row_number() OVER (PARTITION BY s.number ORDER BY batch.key, event.key),
          batch.appended_at, event.value->>'type', event.value->>'agent', event.value->>'turnId', event.value->>'at', event.value
   FROM batch JOIN sessions AS s ON s.id = batch.session, json_each(batch.events) AS event
   ORDER BY batch.key, event.key`,
  'INSERT INTO journals_ingested (name, generation) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET generation = excluded.generation',
  'DELETE FROM journals_ingested WHERE name = ?',
  `SELECT json_group_object(s.id, coalesce((${LAST_SEQ}), 0)) AS lastSeqs
   FROM sessions AS s WHERE s.id IN (SELECT value FROM json_each(@sessions))`,
  // Task lines, in journal order, so the last state of a task saved twice wins. A task id held by
  // another agent or owner is left as it is (the saver checked; another process may have raced it).
  // They come in @tasks, apart from @batches: each statement over @batches parses all of it again.
  // A line journaled before task leases has no runner.
  `INSERT INTO a2a_tasks (id, agent, owner, context_id, state, status_at, document, runner)
   SELECT value->'task'->>'id', value->'task'->>'agent', value->'task'->>'owner', value->'task'->>'contextId',
          value->'task'->>'state', value->'task'->>'statusAt', value->'task'->'document', coalesce(value->'task'->>'runner', '')
   FROM json_each(@tasks) WHERE true ORDER BY key
   ON CONFLICT (id) DO UPDATE SET context_id = excluded.context_id, state = excluded.state,
     status_at = excluded.status_at, document = excluded.document, runner = excluded.runner
   WHERE a2a_tasks.agent = excluded.agent AND a2a_tasks.owner = excluded.owner`,
  `SELECT json_group_array(DISTINCT line.value->'task'->>'id') AS refusedTasks
   FROM json_each(@tasks) AS line
   WHERE NOT EXISTS (
     SELECT 1 FROM a2a_tasks AS t
     WHERE t.id = line.value->'task'->>'id' AND t.agent = line.value->'task'->>'agent' AND t.owner = line.value->'task'->>'owner')`,
  SELECT_WANTED_CLAIMS,
] as const;
const [INSERT_SESSIONS, INSERT_EVENTS, RECORD_INGESTED, FORGET_JOURNAL, SELECT_LAST_SEQS, UPSERT_TASKS, SELECT_REFUSED_TASKS, SELECT_WANTED] = [0, 1, 2, 3, 4, 5, 6, 7];

/**
 * Writes the journal lines' batches and task states, records that journal `name` is ingested up to
 * `generation` (in the same commit, so a replay after a crash skips it), and drops the records of
 * journals since deleted. The job's result rows hold the last seq of each of `sessions` (the
 * batches' sessions; see lastSeqs), the tasks it could not store (see refusedTasks) and the
 * session claims of `writer` another writer waits for (see wantedClaims; none for a replay).
 */
export function ingestJob(batches: readonly string[], tasks: readonly string[], name: string, generation: number, forget: readonly string[], sessions: readonly string[], writer = ''): WriteJob {
  return {
    statements: STATEMENTS,
    named: { batches: `[${batches.join(',')}]`, tasks: `[${tasks.join(',')}]`, sessions: JSON.stringify(sessions), writer },
    runs: [
      [INSERT_SESSIONS, []],
      [INSERT_EVENTS, []],
      [UPSERT_TASKS, []],
      [RECORD_INGESTED, [name, generation]],
      ...forget.map((journal) => [FORGET_JOURNAL, [journal]] as const),
    ],
    reads: [
      [SELECT_LAST_SEQS, []],
      [SELECT_REFUSED_TASKS, []],
      [SELECT_WANTED, []],
    ],
  };
}

/** The ids of the task states an ingest job could not store: another agent or owner holds the id. */
export function refusedTasks(rows: readonly unknown[]): string[] {
  return JSON.parse((rows[1] as { refusedTasks: string }).refusedTasks) as string[];
}

/** Each session's last seq, from an ingest job's result. */
export function lastSeqs(rows: readonly unknown[]): Map<string, number> {
  return new Map(Object.entries(JSON.parse((rows[0] as { lastSeqs: string }).lastSeqs) as Record<string, number>));
}

/** The sessions whose claims another writer waits for, from an ingest job's result. */
export function wantedClaims(rows: readonly unknown[]): string[] {
  return JSON.parse((rows[2] as { wanted: string }).wanted) as string[];
}
