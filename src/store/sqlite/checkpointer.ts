import type Database from 'better-sqlite3';
import type { WriteWorker } from './writeWorker.js';

// A checkpoint copies the WAL into the database file and fsyncs both, which SQLite's automatic
// checkpoint does inside whichever commit crosses its threshold: stalls of 10 to 150 ms on the dev
// VM, a mean append cost of 62-70 µs against 46-48 µs with this module. So the store's write
// thread checkpoints instead, on its own connection; PASSIVE never blocks a writer. A passive
// checkpoint can only let the WAL restart from its beginning once commits pause, so the writer
// keeps its own automatic checkpoint as a backstop, set high: the WAL stays under ~16 MB when
// commits never pause.

// Counted in rows written, so one commit of a thousand journaled events weighs what a thousand
// one-row commits do.
const CHECKPOINT_EVERY_ROWS = 1_024;
const BACKSTOP_PAGES = 4_000;

export interface Checkpointer {
  /** Call after every commit, with roughly how many rows it wrote. */
  committed(rows?: number): void;
}

/** `writer` starts the write thread on first need (it takes ~50 ms to come up): short CLI runs never pay for it. */
export function startCheckpointer(db: Database.Database, writer: () => WriteWorker): Checkpointer {
  db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  let rows = 0;
  return {
    committed(written = 1) {
      rows += written;
      if (rows < CHECKPOINT_EVERY_ROWS) return;
      rows = 0;
      writer().checkpoint();
    },
  };
}
