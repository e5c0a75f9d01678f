import { randomBytes } from 'node:crypto';
import { closeSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { TurnEvent } from '../../core/events.js';
import type { TaskRecord } from '../tasks.js';

// The append journal: each process writes appended event batches to its own file with one
// write(2) per group of batches, and the store moves them into SQLite later in bulk. A SQLite
// commit costs ~12 syscalls at 5-10 µs each on these machines, three commits per turn put a
// persisted turn at ~350 µs against a 150 µs budget; a write(2) is one syscall. Durability is
// the same as the WAL's with synchronous=NORMAL: once write(2) returns, the bytes are in the OS
// page cache and survive the process being killed, not an OS crash.
//
// File layout: a header line {"journal":1,"generation":g} then one JSON line per batch (or A2A
// task state, see taskLine). When its batches go to the database the owner starts a new file and
// deletes this one once they are committed; the database records, in the same commit, the
// generation it ingested per file, so a crash between that commit and the deletion never ingests a
// batch twice. (Journals written before files were rotated truncated and reused one file, counting
// generations up.)

export interface JournalBatch {
  session: string;
  syndicate: string;
  /** The seq the writer gave the batch's first event. */
  seq: number;
  appendedAt: number;
  events: readonly TurnEvent[];
  /** The same events, serialised. */
  payloads: readonly string[];
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

export interface OrphanJournal {
  readonly name: string;
  readonly generation: number;
  /** One JSON line per batch, each checked to parse. */
  readonly batches: string[];
  /** One JSON line per task state, in journal order. */
  readonly tasks: string[];
  /** How many events the batches hold. */
  readonly events: number;
  /** Deletes the file: only once its batches are in the database. */
  remove(): void;
}

const SUFFIX = '.journal';
// A journal being replayed is renamed first, so two processes opening the store at once cannot
// both replay it; the replayer's pid follows, so a replayer that died is noticed in turn.
const REPLAYING = '.replaying-';

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
  return `{"session":${JSON.stringify(batch.session)},"syndicate":${JSON.stringify(batch.syndicate)},"seq":${batch.seq},"appendedAt":${batch.appendedAt},"events":[${batch.payloads.join(',')}]}`;
}

function writeAll(fd: number, text: string): number {
  const bytes = Buffer.from(text);
  const written = writeSync(fd, bytes);
  if (written !== bytes.length) throw new Error(`journal write was cut short (${written} of ${bytes.length} bytes): is the disk full?`);
  return written;
}

export function createJournal(dir: string): Journal {
  mkdirSync(dir, { recursive: true });
  const name = `${process.pid}-${randomBytes(6).toString('hex')}`;
  const path = join(dir, `${name}${SUFFIX}`);
  const fd = openSync(path, 'ax');
  const generation = 1;
  let size = writeAll(fd, header(generation));
  return {
    name,
    generation,
    write(lines) {
      try {
        size += writeAll(fd, `${lines.join('\n')}\n`);
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

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parse(path: string, name: string, claimed: string): OrphanJournal {
  const lines = readFileSync(claimed, 'utf8').split('\n');
  // The last element is '' after a final newline, or a batch whose write(2) never completed: a
  // batch in flight when its writer died, which was never acknowledged.
  lines.pop();
  const [first, ...rest] = lines;
  const generation = first === undefined ? 0 : (JSON.parse(first) as { generation: number }).generation;
  let events = 0;
  const batches: string[] = [];
  const tasks: string[] = [];
  for (const [index, text] of rest.entries()) {
    let line: Partial<Pick<JournalBatch, 'events'>> & { task?: unknown };
    try {
      line = JSON.parse(text) as typeof line;
    } catch (error) {
      throw new Error(`journal ${path} line ${index + 2} is corrupt (${(error as Error).message}); move the file aside to open the store`);
    }
    if (line.task !== undefined) {
      tasks.push(text);
    } else {
      batches.push(text);
      events += line.events?.length ?? 0;
    }
  }
  return { name, generation, batches, tasks, events, remove: () => unlinkSync(claimed) };
}

/** Claims and reads the journals of processes that died before moving them into the database. */
export function claimOrphanJournals(dir: string): OrphanJournal[] {
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const orphans: OrphanJournal[] = [];
  for (const file of files) {
    const match = /^((\d+)-[0-9a-f]+)\.journal(?:\.replaying-(\d+))?$/.exec(file);
    if (!match) continue;
    const [, name, writer, replayer] = match;
    const owner = Number(replayer ?? writer);
    if (owner === process.pid || isAlive(owner)) continue;
    const path = join(dir, file);
    const claimed = join(dir, `${name}${SUFFIX}${REPLAYING}${process.pid}`);
    try {
      renameSync(path, claimed);
    } catch (error) {
      // Another process claimed it first.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    orphans.push(parse(path, name!, claimed));
  }
  return orphans;
}
