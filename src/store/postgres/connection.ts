import pg from 'pg';
import type { Durability } from '../sqlite/connection.js';
import { listenOn, type Listener, type ListenOptions } from './listener.js';

// The connection pool and the three ways the store talks to it: reads (retried when the connection
// drops, since reading twice is harmless), writes (never retried: a write whose outcome is unknown
// fails loudly instead, so nothing is stored twice or lost silently) and transactions.

export interface PostgresStoreOptions {
  /** Connections in the pool (default 10). */
  poolSize?: number;
  /** The server cancels a statement that runs longer (default 30 s). */
  statementTimeoutMs?: number;
  /** How long to wait for a connection, new or from the pool (default 10 s). */
  connectTimeoutMs?: number;
  /** What an acknowledged write survives (see synchronousCommitFor); default `write`. */
  durability?: Durability;
}

/**
 * A statement the store runs on every turn, prepared once per connection under its name: the server
 * parses and plans it once instead of at every call. Only for fixed text (each name is kept by every
 * connection of the pool for as long as it lives).
 */
export interface PreparedSql {
  name: string;
  text: string;
}

export type Sql = string | PreparedSql;

export interface Db {
  readonly target: ServerAddress;
  read<Row extends pg.QueryResultRow>(sql: Sql, params?: readonly unknown[]): Promise<Row[]>;
  write<Row extends pg.QueryResultRow>(sql: Sql, params?: readonly unknown[]): Promise<pg.QueryResult<Row>>;
  /**
   * Runs `work` in one transaction on one connection: committed when it resolves, rolled back when
   * it throws, and run again (at most twice) when PostgreSQL aborts it to break a deadlock, so
   * `work` touches nothing but the database.
   */
  transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  /** LISTENs on a connection of its own (see listener.ts), until stopped or the Db ends. */
  listen(options: ListenOptions): Promise<Listener>;
  end(): Promise<void>;
}

export interface ServerAddress {
  host: string;
  port: number;
  database: string;
  user: string;
}

/**
 * hnsw.ef_search on every connection: how many candidates a search of the facts' HNSW index keeps
 * per round, which sets its cost (see MIN_CANDIDATES in facts.ts for the measured trade-off).
 */
export const HNSW_EF_SEARCH = 40;
const DEFAULT_POOL_SIZE = 10;
const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const READ_ATTEMPTS = 3;
// PostgreSQL breaks a deadlock by aborting one of its transactions whole (deadlock_detected), so
// nothing of it is stored and it can run again: writes that lock several rows in an order the plan
// picks (a group of appends, a prune) can meet in a cycle under load.
const DEADLOCK_DETECTED = '40P01';
const DEADLOCK_ATTEMPTS = 3;

function isDeadlock(error: unknown): boolean {
  return error instanceof pg.DatabaseError && error.code === DEADLOCK_DETECTED;
}
const INT8_OID = 20;

// Errors that mean the connection, not the statement, failed (SQLSTATE class 08, admin shutdown
// 57P01-57P03, and the socket errors Node reports).
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', '57P01', '57P02', '57P03']);

export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08'))) return true;
  return /Connection terminated|connection timeout|Client has encountered a connection error/i.test(error.message);
}

/** Where the URL points, for messages (never the password). */
export function serverAddress(url: string): ServerAddress {
  const parsed = new URL(url);
  return {
    host: decodeURIComponent(parsed.hostname) || parsed.searchParams.get('host') || 'localhost',
    port: parsed.port === '' ? 5432 : Number(parsed.port),
    database: decodeURIComponent(parsed.pathname.replace(/^\//, '')) || decodeURIComponent(parsed.username) || 'postgres',
    user: decodeURIComponent(parsed.username) || process.env.PGUSER || 'postgres',
  };
}

export function describeAddress({ host, port, database, user }: ServerAddress): string {
  return `PostgreSQL at ${host}:${port} (database "${database}", user "${user}")`;
}

/** What to do about a failed connection, by the server's or the socket's error code. */
function connectFix(error: unknown, target: ServerAddress): string {
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case 'ECONNREFUSED':
      return `start the server, or fix the host and port in the URL (postgres://user:password@host:port/database)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host name "${target.host}" does not resolve: fix it in the URL`;
    case '28P01':
    case '28000':
      return 'check the user name and password in the URL';
    case '3D000':
      return `create the database first (createdb ${target.database}), or name an existing one in the URL`;
    default:
      return 'check that the server is running and reachable, and that the URL is right (postgres://user:password@host:port/database)';
  }
}

export function connectError(error: unknown, target: ServerAddress): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(`cannot connect to ${describeAddress(target)}: ${message || String((error as { code?: unknown }).code)}; ${connectFix(error, target)}`, { cause: error });
}

function unconfirmed(error: unknown, target: ServerAddress): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(
    `a write to ${describeAddress(target)} could not be confirmed: the connection failed (${message}), so it may or may not have been stored; ` +
      'nothing was retried (retrying could store it twice)',
    { cause: error },
  );
}

function notStored(error: unknown, target: ServerAddress): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(`a write to ${describeAddress(target)} was not stored: the connection failed before it committed (${message})`, { cause: error });
}

// bigint columns (ids, counts, millisecond times) come back as strings from pg: every value the
// store keeps fits a double exactly, so they are read as numbers.
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary' ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * The session's synchronous_commit for a durability. `write`: off, so a commit is acknowledged once
 * its WAL is in the server's memory, not yet on disk; the server writes it out within about
 * 3 x wal_writer_delay (600 ms by default). Syndicate's process dying loses nothing the server
 * acknowledged (the server keeps it); a crash of the PostgreSQL server or its OS can drop the
 * commits of that last moment (the database stays consistent) — the same promise as SQLite's
 * `write`, where the process dying loses nothing and an OS crash can drop the last writes. `fsync`:
 * on, so each commit waits for its WAL to be flushed (and for synchronous standbys, if any).
 */
export function synchronousCommitFor(durability: Durability): 'on' | 'off' {
  return durability === 'fsync' ? 'on' : 'off';
}

export function poolConfig(url: string, options: PostgresStoreOptions = {}): pg.PoolConfig {
  return {
    connectionString: url,
    max: options.poolSize ?? DEFAULT_POOL_SIZE,
    connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    statement_timeout: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
    // Filtered HNSW scans keep going until enough rows pass the silo filter (pgvector >= 0.8), and
    // look at as many candidates as a search re-ranks (see facts.ts). Placeholders until the vector
    // library loads, which then takes them.
    options: `-c hnsw.iterative_scan=relaxed_order -c hnsw.ef_search=${HNSW_EF_SEARCH} -c synchronous_commit=${synchronousCommitFor(options.durability ?? 'write')}`,
    application_name: 'syndicate',
    types,
  };
}

function queryOf(sql: Sql, params: readonly unknown[]): pg.QueryConfig {
  return typeof sql === 'string' ? { text: sql, values: params as unknown[] } : { name: sql.name, text: sql.text, values: params as unknown[] };
}

export function createDb(url: string, options: PostgresStoreOptions = {}): Db {
  const target = serverAddress(url);
  const pool = new pg.Pool(poolConfig(url, options));
  // An idle connection the server closed (restart, pg_terminate_backend) is reported here and
  // dropped by the pool; the next query opens a new one. Without a listener it would crash the process.
  pool.on('error', () => undefined);
  const listeners = new Set<Listener>();

  const connectionFailed = (error: unknown): Error => (isConnectionError(error) ? connectError(error, target) : (error as Error));

  /** One attempt at a transaction: committed when `work` resolves, rolled back when it throws. */
  const runTransaction = async <T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await pool.connect().catch((error: unknown) => Promise.reject(connectionFailed(error)));
    let committing = false;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      committing = true;
      await client.query('COMMIT');
      client.release();
      return result;
    } catch (error) {
      if (isConnectionError(error)) {
        client.release(error as Error);
        // Before COMMIT the server rolls the transaction back when the connection drops.
        throw committing ? unconfirmed(error, target) : notStored(error, target);
      }
      await client.query('ROLLBACK').then(
        () => client.release(),
        (rollbackError: unknown) => client.release(rollbackError as Error),
      );
      throw error;
    }
  };

  return {
    target,
    async read<Row extends pg.QueryResultRow>(sql: Sql, params: readonly unknown[] = []): Promise<Row[]> {
      for (let attempt = 1; ; attempt++) {
        try {
          return (await pool.query<Row>(queryOf(sql, params))).rows;
        } catch (error) {
          if (!isConnectionError(error)) throw error;
          if (attempt >= READ_ATTEMPTS) throw connectionFailed(error);
        }
      }
    },
    async write<Row extends pg.QueryResultRow>(sql: Sql, params: readonly unknown[] = []): Promise<pg.QueryResult<Row>> {
      for (let attempt = 1; ; attempt++) {
        const client = await pool.connect().catch((error: unknown) => Promise.reject(connectionFailed(error)));
        try {
          const result = await client.query<Row>(queryOf(sql, params));
          client.release();
          return result;
        } catch (error) {
          client.release(isConnectionError(error) ? (error as Error) : undefined);
          if (isDeadlock(error) && attempt < DEADLOCK_ATTEMPTS) continue;
          throw isConnectionError(error) ? unconfirmed(error, target) : error;
        }
      }
    },
    async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
      for (let attempt = 1; ; attempt++) {
        try {
          return await runTransaction(work);
        } catch (error) {
          if (!isDeadlock(error) || attempt >= DEADLOCK_ATTEMPTS) throw error;
        }
      }
    },
    async listen(listening: ListenOptions): Promise<Listener> {
      const listener = await listenOn(poolConfig(url, options), listening).catch((error: unknown) => Promise.reject(connectionFailed(error)));
      listeners.add(listener);
      return {
        stop() {
          listeners.delete(listener);
          return listener.stop();
        },
      };
    },
    async end() {
      await Promise.all([...listeners].map((listener) => listener.stop()));
      listeners.clear();
      await pool.end();
    },
  };
}
