import { randomBytes } from 'node:crypto';
import { mkdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

// Who owns a journal is decided by a lock, never by a PID: a PID says nothing across PID
// namespaces (containers sharing a volume) and can be reused. Each store holds an exclusive
// lock on a file of its own for as long as it is open, and the kernel drops the lock when the
// process dies, however it dies. The lock is SQLite's own (an fcntl lock, taken by a connection
// in EXCLUSIVE locking mode with a transaction left open): it is the lock the database file's
// safety already rests on, so sharing a store across containers assumes nothing new, and it
// needs no heartbeat that a paused live writer could miss. A lease row with a heartbeat would
// hand a stalled writer's journal to another process while the writer can still wake up.

export interface WriterLock {
  /** The writer's id: its journals are named after it. */
  readonly writer: string;
  /** Releases the lock; `forget` also deletes the lock file (once none of the writer's journals is left). */
  release(options?: { forget?: boolean }): void;
}

const LOCK_SUFFIX = '.lock';

function lock(dir: string, writer: string): WriterLock | undefined {
  const path = join(dir, `${writer}${LOCK_SUFFIX}`);
  // timeout 0: a held lock answers SQLITE_BUSY at once.
  const db = new Database(path, { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return undefined;
    throw error;
  }
  return {
    writer,
    release({ forget = false } = {}) {
      if (!db.open) return;
      // Deleted while still locked: a process that opened the file meanwhile locks a file nobody uses.
      if (forget) unlinkSync(path);
      db.close();
    },
  };
}

/** A new writer id, locked for as long as the store is open. */
export function holdNewWriterLock(dir: string): WriterLock {
  mkdirSync(dir, { recursive: true });
  const held = lock(dir, randomBytes(8).toString('hex'));
  if (held === undefined) throw new Error(`could not lock a new journal writer in ${dir}`);
  return held;
}

/** The lock of another writer, or undefined while that writer is alive (it holds it). */
export function tryLockWriter(dir: string, writer: string): WriterLock | undefined {
  return lock(dir, writer);
}
