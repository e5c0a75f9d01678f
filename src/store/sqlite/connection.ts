import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { load as loadSqliteVec } from 'sqlite-vec';
import { migrate } from './schema.js';

export const BUSY_TIMEOUT_MS = 5_000;

/**
 * What a stored write survives. `write` (the default): the process being killed, however it dies;
 * an OS crash or power loss can drop the last writes (the database stays consistent). `fsync`:
 * power loss too, at the price of an fsync per append and per commit (milliseconds on most disks).
 */
export type Durability = 'write' | 'fsync';

/** SQLite's synchronous setting for a durability: FULL syncs the WAL at every commit. */
export function synchronousFor(durability: Durability): string {
  return durability === 'fsync' ? 'FULL' : 'NORMAL';
}

/** A LIMIT that limits nothing: SQLite reads a negative LIMIT as "no limit". */
export const NO_LIMIT = -1;

/** Opens (creating if needed) the database file, configured and migrated to the current schema. */
export function openDatabase(path: string, onStatement?: (sql: string) => void, durability: Durability = 'write'): Database.Database {
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, onStatement ? { verbose: (sql) => onStatement(String(sql)) } : {});
  try {
    // Another process may hold the write lock (a second CLI, the server): wait for it rather than fail.
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    useWal(db);
    // In WAL mode NORMAL writes every commit into the WAL file before returning but skips the fsync.
    // A process crash (even SIGKILL) therefore loses nothing: the written pages sit in the OS page
    // cache, which the kernel flushes regardless of the process. Only an OS crash or power loss can
    // drop the last few commits, and even then the database stays consistent. FULL would fsync on
    // every commit, costing milliseconds per appendEvents against a budget of microseconds: only
    // when asked for (durability fsync).
    db.pragma(`synchronous = ${synchronousFor(durability)}`);
    db.pragma('foreign_keys = ON');
    // Memory is personal data: a delete overwrites the deleted content with zeros instead of
    // leaving it readable in free pages. Costs only deletes, which are rare.
    db.pragma('secure_delete = ON');
    // Memory search scans vectors: with SQLite's default 2 MB cache, 7,000 passage vectors took
    // 96 ms a scan, with 64 MB 27 ms. Pages are cached only as they are read.
    db.pragma('cache_size = -65536');
    // sqlite-vec's functions compare document passage vectors and move facts' vectors out of the
    // vec0 tables older builds kept them in (migration 7), on any connection that opens the file.
    loadSqliteVec(db);
    migrate(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * WAL lets readers in other connections proceed while one writer appends. Two processes switching
 * one new file to WAL can deadlock on the lock upgrade, which SQLite answers with SQLITE_BUSY at
 * once instead of calling the busy handler (2 of 90 opens of six processes at once, here). The mode
 * persists in the file, so a file already in WAL is left alone, and a busy answer is retried (each
 * try drops its locks) up to the busy timeout.
 */
function useWal(db: Database.Database): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      if (db.pragma('journal_mode', { simple: true }) !== 'wal') db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      Atomics.wait(RETRY_PAUSE, 0, 0, 10);
    }
  }
}

/** Something to wait on: opening a database is synchronous, so a retry pauses the thread briefly. */
const RETRY_PAUSE = new Int32Array(new SharedArrayBuffer(4));

/**
 * Copies the WAL into the database file and empties it. With secure_delete, a delete zeroes the
 * content in the new version of each page, but the WAL still holds the old versions until it is
 * overwritten; personal data that was deleted must not wait for that. Waits (busy timeout) for
 * other connections' transactions to end.
 */
export function eraseOldPageVersions(db: Database.Database): void {
  db.pragma('wal_checkpoint(TRUNCATE)');
}
