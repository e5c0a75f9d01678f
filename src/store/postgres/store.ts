import type { TurnEvent } from '../../core/events.js';
import { containsPattern, listedSession, prefixEnd, type AppendOptions, type ListedRow, type ListedSession, type ListSessionsOptions, type ReadEventsOptions, type SessionRecord, type Store, type StoredEvent, type UsageQuery, type UsageRow } from '../store.js';
import { createAppendGroups, type AppendBatch } from './appendGroups.js';
import { createDb, type Db, type PostgresStoreOptions, type PreparedSql } from './connection.js';
import { createPostgresDocuments } from './documents.js';
import { createPostgresFacts } from './facts.js';
import { CLEAR_NOTES, createPostgresNotes } from './notes.js';
import { createPostgresUsers } from './users.js';
import { skillsColumn, usageRowOf, type StoredUsageRow } from '../usageSkills.js';
import { migrate } from './schema.js';
import { sessionTitle } from '../sessionTitle.js';
import { createPostgresTasks } from './tasks.js';
import { createPostgresBackgroundJobs, createPostgresDreamRuns } from './backgroundJobs.js';
import { createPostgresSchedules } from './schedules.js';

// Sessions, events and the usage ledger on PostgreSQL. Every write is one statement (its own
// transaction) or one transaction, committed before the call resolves: what it returns is final
// (durable against the server crashing only with durability fsync: see synchronousCommitFor).

const SESSION_COLUMNS = 'id, syndicate, created_at AS "createdAt", updated_at AS "updatedAt", event_count AS "eventCount"';

// The batch's rows, numbered on from the session's count as the statement's `session` left it.
// The statement returns that count, the batch's last seq, as one row (not a row per event).
const INSERT_EVENTS = `
  inserted AS (
    INSERT INTO events (session_number, seq, appended_at, type, payload)
    SELECT session.number, session.event_count - cardinality($2::text[]) + event.ordinal, $4, event.type, event.payload
    FROM session, unnest($2::text[], $3::text[]) WITH ORDINALITY AS event (type, payload, ordinal)
  )
  SELECT event_count AS "lastSeq" FROM session`;

// The SET of a session's title: the batch's title ($6) if the row held no events before it.
const TITLED = 'title = CASE WHEN sessions.event_count = 0 THEN $6::text ELSE sessions.title END';

// One statement, so one round trip and one transaction: the UPDATE takes the session row's lock
// and bumps its count by the batch's size, so appenders to one session, in any process, queue on
// that row and each batch gets the next run of seqs, whole. No row: the session does not exist.
// With $5 it clears the session's notes too (a turn's last batch), in the same transaction. $6 is
// the title the batch gives the session if it holds its first events (TITLED).
const APPEND: PreparedSql = {
  name: 'syndicate_append_events',
  text: `
  WITH session AS (
    UPDATE sessions SET event_count = event_count + cardinality($2::text[]), updated_at = greatest(updated_at, $4), ${TITLED}
    WHERE id = $1 RETURNING number, event_count
  ),
  notes AS (DELETE FROM session_notes WHERE $5::boolean AND session_id = $1),
  ${INSERT_EVENTS}`,
};

// APPEND that creates the session ($7 its syndicate) when it does not exist: the upsert locks and
// bumps an existing row as APPEND's UPDATE does, or inserts it holding the batch's count.
const OPEN_AND_APPEND: PreparedSql = {
  name: 'syndicate_open_and_append_events',
  text: `
  WITH session AS (
    INSERT INTO sessions (id, syndicate, created_at, updated_at, event_count, title) VALUES ($1, $7, $4, $4, cardinality($2::text[]), $6)
    ON CONFLICT (id) DO UPDATE SET event_count = sessions.event_count + cardinality($2::text[]), updated_at = greatest(sessions.updated_at, $4), ${TITLED}
    RETURNING number, event_count
  ),
  notes AS (DELETE FROM session_notes WHERE $5::boolean AND session_id = $1),
  ${INSERT_EVENTS}`,
};

// Append statements running at once (appendGroups.ts); the appends that come while they run are
// grouped. Two: one group commits while the next forms; more statements in flight only split the
// groups (bench/postgresProcesses.ts, server CPU per turn: 280-320 us at 2, 360-470 at 4, 440-590
// at 8), and the pool's other connections stay free for reads.
const APPENDS_IN_FLIGHT = 2;

const GET_SESSION: PreparedSql = { name: 'syndicate_get_session', text: `SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = $1` };

const USAGE_COLUMNS = `at, syndicate, session_id AS "sessionId", turn_id AS "turnId", agent, provider, model,
  input_tokens AS "inputTokens", output_tokens AS "outputTokens", reasoning_tokens AS "reasoningTokens",
  cached_input_tokens AS "cachedInputTokens", latency_ms AS "latencyMs", outcome, turn_status AS "turnStatus", skills`;

// One multi-row INSERT over arrays: the whole batch is one statement, so it is stored or refused whole.
const INSERT_USAGE = `
  INSERT INTO usage_ledger (at, syndicate, session_id, turn_id, agent, provider, model, input_tokens, output_tokens,
    reasoning_tokens, cached_input_tokens, latency_ms, outcome, turn_status, skills)
  SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[],
    $9::bigint[], $10::bigint[], $11::bigint[], $12::float8[], $13::text[], $14::text[], $15::text[])`;

function notOpened(sessionId: string): Error {
  return new Error(`cannot append to session '${sessionId}': it was not opened (call openSession first)`);
}

function usageColumns(rows: readonly UsageRow[]): unknown[][] {
  const keys = [
    'at', 'syndicate', 'sessionId', 'turnId', 'agent', 'provider', 'model', 'inputTokens', 'outputTokens',
    'reasoningTokens', 'cachedInputTokens', 'latencyMs', 'outcome', 'turnStatus',
  ] as const satisfies ReadonlyArray<keyof UsageRow>;
  return [...keys.map((key) => rows.map((row) => row[key])), rows.map((row) => skillsColumn(row.skills))];
}

/**
 * Stores one batch in one statement. With openFor it is APPEND all the same, and OPEN_AND_APPEND
 * only when the session turns out not to exist: a turn opens a session it has cached, which almost
 * always exists, and the upsert costs the server ~90 us more than the UPDATE (bench/postgres.ts).
 * An APPEND that found no session stored no events (clearing notes, if it did, is what
 * OPEN_AND_APPEND does again).
 */
async function appendAlone(db: Db, { sessionId, types, payloads, clearNotes, title, openFor }: AppendBatch, at: number): Promise<number | undefined> {
  const params = [sessionId, types, payloads, at, clearNotes, title];
  const appended = (await db.write<{ lastSeq: number }>(APPEND, params)).rows[0];
  if (appended !== undefined || openFor === undefined) return appended?.lastSeq;
  return (await db.write<{ lastSeq: number }>(OPEN_AND_APPEND, [...params, openFor])).rows[0]!.lastSeq;
}

function sessionStore(db: Db, appendsInFlight: number) {
  const append = createAppendGroups(db, (batch, at) => appendAlone(db, batch, at), appendsInFlight);
  const createSession = async (id: string, syndicate: string): Promise<SessionRecord | undefined> => {
    const now = Date.now();
    const { rows } = await db.write<SessionRecord>(
      `INSERT INTO sessions (id, syndicate, created_at, updated_at) VALUES ($1, $2, $3, $3)
       ON CONFLICT (id) DO NOTHING RETURNING ${SESSION_COLUMNS}`,
      [id, syndicate, now],
    );
    return rows[0];
  };
  const getSession = async (id: string): Promise<SessionRecord | undefined> => (await db.read<SessionRecord>(GET_SESSION, [id]))[0];

  const openSession = async (id: string, syndicate: string, options?: { isNew?: boolean }): Promise<SessionRecord> => {
    // Read first unless the id is new: a session is opened once per turn and almost always exists.
    const existing = options?.isNew ? undefined : await getSession(id);
    if (existing !== undefined) return existing;
    // Another process may create it between the read and the insert: then its row is the session.
    const session = (await createSession(id, syndicate)) ?? (await getSession(id));
    if (session === undefined) throw new Error(`session '${id}' was deleted while it was being opened`);
    return session;
  };

  return {
    openSession,
    getSession,
    async listSessions({ syndicate, id, idPrefix, limit, after, query }: ListSessionsOptions = {}): Promise<ListedSession[]> {
      // The id range (not LIKE, whose pattern would need escaping) is a scan of the C-collated id index.
      // Each of the page's sessions then gets how its last ended turn ended: its last turn-end,
      // found backwards through its events from the end.
      const rows = await db.read<ListedRow>(
        `SELECT page.id, page.syndicate, page."createdAt", page."updatedAt", page."eventCount", page.title,
                CASE WHEN ended.payload::json ->> 'interrupted' = 'true' THEN 'interrupted' ELSE ended.payload::json ->> 'status' END AS "lastOutcome",
                ended.appended_at AS "lastEndedAt"
         FROM (
           SELECT number, ${SESSION_COLUMNS}, title FROM sessions
           WHERE ($1::text IS NULL OR syndicate = $1)
             AND ($3::text IS NULL OR (id >= $3 AND id < $4))
             AND ($5::bigint IS NULL OR updated_at < $5 OR (updated_at = $5 AND id > $6))
             AND ($7::text IS NULL OR title ILIKE $7 OR id ILIKE $7)
             AND ($8::text IS NULL OR id = $8)
           ORDER BY updated_at DESC, id LIMIT $2
         ) AS page
         LEFT JOIN LATERAL (
           SELECT payload, appended_at FROM events WHERE session_number = page.number AND type = 'turn-end' ORDER BY seq DESC LIMIT 1
         ) AS ended ON true
         ORDER BY page."updatedAt" DESC, page.id`,
        [syndicate ?? null, limit ?? null, idPrefix || null, idPrefix ? prefixEnd(idPrefix) : null, after?.updatedAt ?? null, after?.id ?? null, query ? containsPattern(query) : null, id ?? null],
      );
      return rows.map(listedSession);
    },
    async deleteSession(id: string): Promise<boolean> {
      // Notes are keyed by the session id, not its row (notesSchema.ts). Deleting the row waits for
      // an append in flight and stops later ones, so the events' DELETE, a later statement with a
      // newer snapshot, sees every event the session got.
      return db.transaction(async (client) => {
        const { rows } = await client.query<{ number: number }>(
          `WITH notes AS (DELETE FROM session_notes WHERE session_id = $1) DELETE FROM sessions WHERE id = $1 RETURNING number`,
          [id],
        );
        if (rows.length === 0) return false;
        await client.query('DELETE FROM events WHERE session_number = $1', [rows[0]!.number]);
        return true;
      });
    },
    async pruneSessions(before: number): Promise<number> {
      // As deleteSession, for every session sessions_by_update finds older than `before`.
      return db.transaction(async (client) => {
        // bigint[] comes back as text; only its length and the values passed back are used.
        const { rows } = await client.query<{ numbers: string[] }>(
          `WITH gone AS (DELETE FROM sessions WHERE updated_at < $1 RETURNING number, id),
           notes AS (DELETE FROM session_notes WHERE session_id IN (SELECT id COLLATE "C" FROM gone))
           SELECT coalesce(array_agg(number), '{}') AS numbers FROM gone`,
          [before],
        );
        const numbers = rows[0]!.numbers;
        if (numbers.length > 0) await client.query('DELETE FROM events WHERE session_number = ANY($1::bigint[])', [numbers]);
        return numbers.length;
      });
    },
    async appendEvents(sessionId: string, events: readonly TurnEvent[], options?: AppendOptions): Promise<number> {
      // Serialised up front: an event that cannot be stored fails its batch before anything is written.
      const payloads = events.map((event) => JSON.stringify(event));
      const clearNotes = options?.clearNotes === true;
      if (events.length === 0) {
        if (clearNotes) await db.write(CLEAR_NOTES, [sessionId]);
        const session = options?.openFor === undefined ? await getSession(sessionId) : await openSession(sessionId, options.openFor);
        if (session === undefined) throw notOpened(sessionId);
        return session.eventCount;
      }
      const lastSeq = await append({ sessionId, types: events.map((event) => event.type), payloads, clearNotes, title: sessionTitle(events), openFor: options?.openFor });
      if (lastSeq === undefined) throw notOpened(sessionId);
      return lastSeq;
    },
    async readEvents(sessionId: string, { afterSeq = 0, limit }: ReadEventsOptions = {}): Promise<StoredEvent[]> {
      const rows = await db.read<{ seq: number; payload: string }>(
        `SELECT seq, payload FROM events WHERE session_number = (SELECT number FROM sessions WHERE id = $1) AND seq > $2 ORDER BY seq LIMIT $3`,
        [sessionId, afterSeq, limit ?? null],
      );
      return rows.map((row) => ({ seq: row.seq, sessionId, event: JSON.parse(row.payload) as TurnEvent }));
    },
  };
}

function usageLedger(db: Db) {
  return {
    async recordUsage(rows: readonly UsageRow[]): Promise<void> {
      if (rows.length === 0) return;
      await db.write(INSERT_USAGE, usageColumns(rows));
    },
    async queryUsage({ since, syndicate }: UsageQuery = {}): Promise<UsageRow[]> {
      const rows = await db.read<StoredUsageRow>(
        `SELECT ${USAGE_COLUMNS} FROM usage_ledger WHERE ($1::bigint IS NULL OR at >= $1) AND ($2::text IS NULL OR syndicate = $2) ORDER BY at, id`,
        [since ?? null, syndicate ?? null],
      );
      return rows.map(usageRowOf);
    },
  };
}

/**
 * Opens a store on the database at `url` (postgres:// or postgresql://), bringing its schema up to
 * date first. Fails here, naming the server and the fix, when it cannot connect, when the database
 * was created by a newer syndicate, or when pgvector is missing.
 */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<Store> {
  await migrate(url, options);
  const db = createDb(url, options);
  let closing: Promise<void> | undefined;
  return {
    ...sessionStore(db, Math.min(APPENDS_IN_FLIGHT, options.poolSize ?? APPENDS_IN_FLIGHT)),
    ...usageLedger(db),
    tasks: createPostgresTasks(db),
    facts: createPostgresFacts(db),
    documents: createPostgresDocuments(db),
    notes: createPostgresNotes(db),
    backgroundJobs: createPostgresBackgroundJobs(db),
    dreamRuns: createPostgresDreamRuns(db),
    schedules: createPostgresSchedules(db),
    users: createPostgresUsers(db),
    close(): Promise<void> {
      closing ??= db.end();
      return closing;
    },
  };
}
