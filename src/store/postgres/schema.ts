import pg from 'pg';
import { connectError, describeAddress, poolConfig, serverAddress, type PostgresStoreOptions, type ServerAddress } from './connection.js';
import { DOCUMENTS_MIGRATION } from './documentsSchema.js';
import { FACT_RESTATES_MIGRATION, FACTS_MIGRATION, FACTS_SEARCH_NO_PENDING_MIGRATION, HALFVEC_INDEX_MIGRATION } from './factsSchema.js';
import { NOTES_MIGRATION } from './notesSchema.js';
import { USERS_MIGRATION } from './usersSchema.js';
import { TASK_LEASES_MIGRATION } from './tasksSchema.js';
import { BACKGROUND_JOBS_MIGRATION, DREAM_LEASES_MIGRATION, DREAM_RUNS_MIGRATION } from './backgroundJobsSchema.js';
import { FIRING_DECISIONS_MIGRATION, SCHEDULES_MIGRATION } from './schedulesSchema.js';

// Migration i moves the schema from version i to i + 1; syndicate_schema records each one applied.
// Append new migrations, never edit one that has shipped. They run under an advisory lock, so a
// second process that starts meanwhile waits for the first to finish and then finds nothing to do.
const MIGRATIONS: readonly string[] = [
  `
  -- number is the key events refer to: a recreated session id gets a new one, so its seqs restart.
  -- event_count is the seq of the session's last event; an append bumps it under the row's lock,
  -- which is what keeps seqs gapless and batches whole when several processes append at once.
  -- Text that is sorted is COLLATE "C" (byte order), as SQLite sorts it.
  CREATE TABLE sessions (
    number      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id          text COLLATE "C" NOT NULL UNIQUE,
    syndicate   text NOT NULL,
    created_at  bigint NOT NULL,
    updated_at  bigint NOT NULL,
    event_count integer NOT NULL DEFAULT 0
  );
  -- The session lists the UI polls, and retention (oldest first).
  CREATE INDEX sessions_by_update ON sessions (updated_at DESC, id);
  CREATE INDEX sessions_of_syndicate ON sessions (syndicate, updated_at DESC, id);
  -- payload is the whole event as JSON text: jsonb would refuse a NUL in tool output and reorder keys.
  CREATE TABLE events (
    session_number bigint NOT NULL REFERENCES sessions (number) ON DELETE CASCADE,
    seq            integer NOT NULL,
    appended_at    bigint NOT NULL,
    type           text NOT NULL,
    payload        text NOT NULL,
    PRIMARY KEY (session_number, seq)
  );
  -- One row per model call. Not tied to sessions: deleting a conversation must not erase what it cost.
  CREATE TABLE usage_ledger (
    id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at                  bigint NOT NULL,
    syndicate           text NOT NULL,
    session_id          text,
    turn_id             text NOT NULL,
    agent               text NOT NULL,
    provider            text NOT NULL,
    model               text NOT NULL,
    input_tokens        bigint NOT NULL,
    output_tokens       bigint NOT NULL,
    reasoning_tokens    bigint NOT NULL,
    cached_input_tokens bigint NOT NULL,
    latency_ms          double precision NOT NULL,
    outcome             text NOT NULL,
    turn_status         text NOT NULL
  );
  CREATE INDEX usage_ledger_by_time ON usage_ledger (at, id);
  CREATE INDEX usage_ledger_of_syndicate ON usage_ledger (syndicate, at, id);
  -- A2A tasks: the whole task as JSON text, plus the columns ListTasks filters and pages on.
  CREATE TABLE a2a_tasks (
    id         text COLLATE "C" PRIMARY KEY,
    agent      text NOT NULL,
    owner      text NOT NULL,
    context_id text NOT NULL,
    state      text NOT NULL,
    status_at  text COLLATE "C" NOT NULL,
    document   text NOT NULL
  );
  CREATE INDEX a2a_tasks_by_owner ON a2a_tasks (agent, owner, status_at DESC, id DESC);
  CREATE INDEX a2a_tasks_by_state ON a2a_tasks (state);
  `,
  FACTS_MIGRATION,
  DOCUMENTS_MIGRATION,
  TASK_LEASES_MIGRATION,
  NOTES_MIGRATION,
  `
  -- The skills each ledger row's turn activated, as JSON text (store/usageSkills.ts); NULL when none.
  ALTER TABLE usage_ledger ADD COLUMN skills text;
  `,
  FACT_RESTATES_MIGRATION,
  HALFVEC_INDEX_MIGRATION,
  BACKGROUND_JOBS_MIGRATION,
  DREAM_RUNS_MIGRATION,
  USERS_MIGRATION,
  `
  -- Events keep no foreign key to their session: its check was a lookup of the session row per
  -- inserted event, a third of the server's work per append (bench/postgres.ts). The append
  -- statement inserts only under the session row it updates (so locks), and deleting a session
  -- removes its events under that row's lock (store.ts), which is what the key guaranteed.
  ALTER TABLE events DROP CONSTRAINT IF EXISTS events_session_number_fkey;
  `,
  SCHEDULES_MIGRATION,
  DREAM_LEASES_MIGRATION,
  `
  -- A session's title (store/sessionTitle.ts), set by the append that stores its first event, so a
  -- list of sessions reads no events. The backfill applies the same rule to the events stored: a
  -- NUL or lone surrogate escape becomes U+FFFD first (text cannot hold them), and left() counts
  -- code points as SESSION_TITLE_LENGTH does.
  ALTER TABLE sessions ADD COLUMN title text;
  UPDATE sessions SET title = left(regexp_replace(first.payload, '\\\\u(0000|[dD][89a-fA-F][0-9a-fA-F]{2})', '\\\\ufffd', 'g')::json ->> 'input', 500)
  FROM events AS first
  WHERE first.session_number = sessions.number AND first.seq = 1 AND first.type = 'turn-start';
  `,
  FACTS_SEARCH_NO_PENDING_MIGRATION,
  FIRING_DECISIONS_MIGRATION,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

// pg_advisory_lock key of schema changes (an arbitrary constant, the same in every process).
export const SCHEMA_LOCK = 7_311_020_415;
const MIN_PGVECTOR = [0, 8];
const PGVECTOR_INSTALL =
  'install pgvector >= 0.8 on the database server (Debian bookworm: sudo scripts/install-postgres.sh builds it from Debian trixie\'s source package; ' +
  'elsewhere the postgresql-NN-pgvector package or https://github.com/pgvector/pgvector#installation), then run `syndicate db migrate`';

export interface SchemaStatus {
  /** The schema version the database is at (0: none applied). */
  version: number;
  /** The version this build of syndicate brings. */
  latest: number;
  /** The installed pgvector extension's version, if it is created in the database. */
  pgvector: string | undefined;
  server: string;
}

const CREATE_VERSION_TABLE = `CREATE TABLE IF NOT EXISTS syndicate_schema (version integer PRIMARY KEY, applied_at bigint NOT NULL)`;

async function appliedVersion(client: pg.ClientBase): Promise<number> {
  const { rows } = await client.query<{ exists: boolean }>(`SELECT to_regclass('syndicate_schema') IS NOT NULL AS exists`);
  if (!rows[0]!.exists) return 0;
  const applied = await client.query<{ version: number }>('SELECT coalesce(max(version), 0) AS version FROM syndicate_schema');
  return applied.rows[0]!.version;
}

async function pgvectorVersion(client: pg.ClientBase): Promise<string | undefined> {
  const { rows } = await client.query<{ extversion: string }>(`SELECT extversion FROM pg_extension WHERE extname = 'vector'`);
  return rows[0]?.extversion;
}

function olderThan(version: string, minimum: readonly number[]): boolean {
  const parts = version.split('.').map(Number);
  for (const [i, wanted] of minimum.entries()) {
    const part = parts[i] ?? 0;
    if (part !== wanted) return part < wanted;
  }
  return false;
}

function refuseNewer(version: number, target: ServerAddress): void {
  if (version > SCHEMA_VERSION) {
    throw new Error(
      `${describeAddress(target)} holds schema version ${version}, newer than this build of syndicate supports (${SCHEMA_VERSION}): ` +
        'it was created by a newer syndicate; upgrade syndicate',
    );
  }
}

/** Creates the vector extension when it is missing, naming what to install when the server lacks it. */
async function ensurePgvector(client: pg.ClientBase, target: ServerAddress): Promise<void> {
  const installed = await pgvectorVersion(client);
  if (installed === undefined) {
    const available = await client.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`);
    if (available.rowCount === 0) throw new Error(`pgvector is not installed on ${describeAddress(target)}: ${PGVECTOR_INSTALL}`);
    try {
      await client.query('CREATE EXTENSION IF NOT EXISTS vector');
    } catch (error) {
      if ((error as { code?: string }).code !== '42501') throw error;
      throw new Error(
        `pgvector is installed on ${describeAddress(target)}, but user "${target.user}" may not create the extension in database "${target.database}": ` +
          'have a superuser run `CREATE EXTENSION vector;` in it, then start again',
        { cause: error },
      );
    }
  }
  const version = installed ?? (await pgvectorVersion(client))!;
  if (olderThan(version, MIN_PGVECTOR)) {
    throw new Error(`${describeAddress(target)} has pgvector ${version}; syndicate needs >= ${MIN_PGVECTOR.join('.')}: ${PGVECTOR_INSTALL}, and \`ALTER EXTENSION vector UPDATE;\``);
  }
}

/** Applies the pending migrations, holding the schema lock; returns the versions before and after. */
async function migrateLocked(client: pg.ClientBase, target: ServerAddress): Promise<{ from: number; to: number }> {
  await client.query('SELECT pg_advisory_lock($1)', [SCHEMA_LOCK]);
  try {
    const from = await appliedVersion(client);
    refuseNewer(from, target);
    await ensurePgvector(client, target);
    await client.query(CREATE_VERSION_TABLE);
    for (const [index, sql] of MIGRATIONS.entries()) {
      if (index < from) continue;
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query('INSERT INTO syndicate_schema (version, applied_at) VALUES ($1, $2)', [index + 1, Date.now()]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`schema migration ${index + 1} failed on ${describeAddress(target)}: ${(error as Error).message}`, { cause: error });
      }
    }
    return { from, to: SCHEMA_VERSION };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [SCHEMA_LOCK]);
  }
}

/** A connection of its own, without a statement timeout: waiting for another process's migration can take a while. */
async function withSchemaClient<T>(url: string, options: PostgresStoreOptions, work: (client: pg.Client, target: ServerAddress) => Promise<T>): Promise<T> {
  const target = serverAddress(url);
  const client = new pg.Client({ ...poolConfig(url, options), statement_timeout: 0 });
  // Reported by the query that was running; without a listener a dropped connection would crash the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    throw connectError(error, target);
  }
  try {
    return await work(client, target);
  } finally {
    await client.end();
  }
}

/** Brings the database to SCHEMA_VERSION (a no-op, without taking the lock, when it is there). */
export async function migrate(url: string, options: PostgresStoreOptions = {}): Promise<{ from: number; to: number }> {
  return withSchemaClient(url, options, async (client, target) => {
    const version = await appliedVersion(client);
    refuseNewer(version, target);
    if (version === SCHEMA_VERSION && (await pgvectorVersion(client)) !== undefined) return { from: version, to: version };
    return migrateLocked(client, target);
  });
}

export async function schemaStatus(url: string, options: PostgresStoreOptions = {}): Promise<SchemaStatus> {
  return withSchemaClient(url, options, async (client) => {
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
    return { version: await appliedVersion(client), latest: SCHEMA_VERSION, pgvector: await pgvectorVersion(client), server: rows[0]!.server_version };
  });
}
