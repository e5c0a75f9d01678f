import { readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { JournalBatch } from './journal.js';
import { journalFileName, parseJournalFileName } from './journal.js';
import { tryLockWriter } from './writerLock.js';

// The journals of stores that closed without moving them into the database (a crash, a kill):
// whoever gets the writer's lock replays them, in the order the writer wrote them.

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

// Files of the journal format before writers held locks: named after a PID, claimed by PID liveness.
const PID_NAMED_JOURNAL = /^\d+-[0-9a-f]+\.journal(?:\.replaying-\d+)?$/;

function parse(path: string, name: string, generation: number): OrphanJournal {
  const lines = readFileSync(path, 'utf8').split('\n');
  // The last element is '' after a final newline, or a batch whose write(2) never completed: a
  // batch in flight when its writer died, which was never acknowledged.
  lines.pop();
  let events = 0;
  const batches: string[] = [];
  const tasks: string[] = [];
  for (const [index, text] of lines.slice(1).entries()) {
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
  return { name, generation, batches, tasks, events, remove: () => unlinkSync(path) };
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** The writer's journals, oldest generation first. */
function journalsOf(dir: string, writer: string): number[] {
  return listDir(dir)
    .map(parseJournalFileName)
    .filter((parsed) => parsed?.writer === writer)
    .map((parsed) => parsed!.generation)
    .sort((a, b) => a - b);
}

/** Whether any journal of the writer is left (see sessionClaims.ts). */
export function hasJournals(dir: string, writer: string): boolean {
  return journalsOf(dir, writer).length > 0;
}

/**
 * Hands `replay` every journal of every writer other than `self` whose lock is free (its store is
 * no longer open), each writer's in generation order, holding that writer's lock meanwhile so no
 * other process replays them too. `replay` calls the journal's remove() once it is stored.
 */
export function replayOrphanJournals(dir: string, self: string, replay: (orphan: OrphanJournal) => void): void {
  const files = listDir(dir);
  const legacy = files.find((file) => PID_NAMED_JOURNAL.test(file));
  if (legacy !== undefined) {
    throw new Error(
      `${join(dir, legacy)} is a journal written by an older syndicate: open the store once with that version to move it into the database, or move the file aside (its events are then lost)`,
    );
  }
  // A writer locks itself before it creates its first journal, so a writer with a journal has a lock to try.
  const writers = new Set(files.map((file) => parseJournalFileName(file)?.writer).filter((writer) => writer !== undefined && writer !== self));
  for (const writer of [...writers].sort()) {
    const lock = tryLockWriter(dir, writer!);
    if (lock === undefined) continue;
    try {
      // Listed again under the lock: another replayer may have finished with this writer meanwhile.
      for (const generation of journalsOf(dir, writer!)) {
        replay(parse(join(dir, journalFileName(writer!, generation)), `${writer}.${generation}`, generation));
      }
    } catch (error) {
      lock.release();
      throw error;
    }
    lock.release({ forget: true });
  }
}
