import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

// A checkpoint copies the WAL into the database file and fsyncs both, which SQLite's automatic
// checkpoint does inside whichever commit crosses its threshold: stalls of 10 to 150 ms on the dev
// VM, a mean append cost of 62-70 µs against 46-48 µs with this module. So a worker thread
// checkpoints instead, on its own connection; PASSIVE never blocks a writer. A passive checkpoint
// can only let the WAL restart from its beginning once commits pause, so the writer keeps its own
// automatic checkpoint as a backstop, set high: the WAL stays under ~16 MB when commits never pause.

// Counted in rows written, so one commit of a thousand journaled events weighs what a thousand
// one-row commits do.
const CHECKPOINT_EVERY_ROWS = 1_024;
const BACKSTOP_PAGES = 4_000;
const SQLITE_DEFAULT_PAGES = 1_000;

// Evaluated rather than loaded from a file so it runs the same from src/ under the tests and from
// dist/; the driver is resolved here because an evaluated worker resolves modules from the cwd.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
parentPort.on('message', () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or failed this time: the next request retries, and the backstop bounds the WAL meanwhile.
  }
});
`;

export interface Checkpointer {
  /** Call after every commit, with roughly how many rows it wrote. */
  committed(rows?: number): void;
  stop(): Promise<void>;
}

export function startCheckpointer(db: Database.Database, path: string): Checkpointer {
  // Resolved now: the worker starts later, and the process may have changed directory by then.
  const absolutePath = resolve(path);
  db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  let worker: Worker | undefined;
  let failed = false;
  let rows = 0;

  const spawn = (): Worker => {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const spawned = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, path: absolutePath } });
    // Never keeps the process alive; a checkpoint cut short by exit is safe (SQLite is crash-safe).
    spawned.unref();
    spawned.on('error', () => {
      failed = true;
      if (db.open) db.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`);
    });
    return spawned;
  };

  return {
    committed(written = 1) {
      rows += written;
      if (rows < CHECKPOINT_EVERY_ROWS || failed) return;
      rows = 0;
      // Started on first need (the thread takes ~50 ms to come up): short CLI runs never pay for it.
      worker ??= spawn();
      worker.postMessage(null);
    },
    async stop() {
      await worker?.terminate();
    },
  };
}
