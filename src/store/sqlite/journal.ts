import { closeSync, fdatasyncSync, fsyncSync, ftruncateSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { TurnEvent } from '../../core/events.js';
import type { TaskRecord } from '../tasks.js';
import type { Durability } from './connection.js';

// The append journal: each process writes appended event batches to its own file with one
// write(2) per group of batches, and the store moves them into SQLite later in bulk. A SQLite
// commit costs ~12 syscalls at 5-10 µs each on these machines, three commits per turn put a
// persisted turn at ~350 µs against a 150 µs budget; a write(2) is one syscall. Measured again in
// one bench run (turnOverhead, 2026-12, loaded 2-core VM): a group-committed transaction per step
// boundary took 764-820 µs per persisted turn on the appending thread and 2-10 ms on a write
// thread, against 489-614 µs with this journal, so the simpler design was not taken. Durability is
// the same as the WAL's with synchronous=NORMAL: once write(2) returns, the bytes are in the OS
// page cache and survive the process being killed, not an OS crash or power loss. With
// durability fsync every write is fdatasync'd before it returns, and every new file's directory
// entry is synced, which survives power loss too.
//
// File layout: a header line {"journal":1,"generation":g} then one JSON line per batch (or A2A
// task state, see taskLine). A store writes its journals as `<writer>.<generation>.journal`, one
// after the other, while it holds its writer lock (writerLock.ts). When its batches go to the
// database the owner starts the next generation and deletes this one once they are committed;
// the database records the file as ingested in the same commit, so a crash between that commit
// and the deletion never ingests a batch twice. A crash can leave several generations of one
// writer: they are replayed in generation order (orphanJournals.ts), which is the order of
// their batches.

export interface JournalBatch {
  session: string;
  syndicate: string;
  /** The seq the writer gave the batch's first event. */
  seq: number;
  appendedAt: number;
  events: readonly TurnEvent[];
  /** The same events, serialised. */
  payloads: readonly string[];
  /** The title the batch gives its session when it holds the session's first events (store/sessionTitle.ts). */
  title?: string | null;
}

export interface Journal {
  /** Identifies this journal in the database's ingestion records. */
  readonly name: string;
  readonly generation: number;
  /** Appends lines (see journalLine) with one write(2); throws (having written nothing) if that fails. */
  write(lines: readonly string[]): void;
  /** Closes and deletes the file: only once every batch in it is in the database. */
  remove(): void;
}

const SUFFIX = '.journal';

export function journalDir(dbPath: string): string {
  return `${dbPath}-journals`;
}

function header(generation: number): string {
  return `{"journal":1,"generation":${generation}}\n`;
}

/** A task's state as one line of JSON, without the newline: moved into the tasks table with the batches. */
export function taskLine(task: TaskRecord): string {
  return `{"task":${JSON.stringify(task)}}`;
}

/** A batch as one line of JSON, without the newline. */
export function journalLine(batch: JournalBatch): string {
  const title = typeof batch.title === 'string' ? `,"title":${JSON.stringify(batch.title)}` : '';
  return `{"session":${JSON.stringify(batch.session)},"syndicate":${JSON.stringify(batch.syndicate)},"seq":${batch.seq},"appendedAt":${batch.appendedAt}${title},"events":[${batch.payloads.join(',')}]}`;
}

function writeAll(fd: number, text: string): number {
  const bytes = Buffer.from(text);
  const written = writeSync(fd, bytes);
  if (written !== bytes.length) throw new Error(`journal write was cut short (${written} of ${bytes.length} bytes): is the disk full?`);
  return written;
}

/** A new file survives power loss only once the directory that names it is synced too. */
function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The name of a writer's journal file: its generation counts the writer's journals from 1. */
export function journalFileName(writer: string, generation: number): string {
  return `${writer}.${generation}${SUFFIX}`;
}

/** The writer and generation of a journal file's name, if it is one. */
export function parseJournalFileName(file: string): { writer: string; generation: number } | undefined {
  const match = /^([0-9a-f]{16})\.(\d+)\.journal$/.exec(file);
  return match ? { writer: match[1]!, generation: Number(match[2]) } : undefined;
}

/** A new journal of `writer`, who must hold its lock (see writerLock.ts) for as long as the journal exists. */
export function createJournal(dir: string, writer: string, generation: number, durability: Durability = 'write'): Journal {
  const name = `${writer}.${generation}`;
  const path = join(dir, journalFileName(writer, generation));
  const fd = openSync(path, 'ax');
  const sync = durability === 'fsync';
  let size = writeAll(fd, header(generation));
  if (sync) {
    fdatasyncSync(fd);
    syncDirectory(dir);
  }
  return {
    name,
    generation,
    write(lines) {
      try {
        size += writeAll(fd, `${lines.join('\n')}\n`);
        if (sync) fdatasyncSync(fd);
      } catch (error) {
        // A partial line would be read back as a torn batch: cut the file back to its last whole line.
        ftruncateSync(fd, size);
        throw error;
      }
    },
    remove() {
      closeSync(fd);
      unlinkSync(path);
    },
  };
}
