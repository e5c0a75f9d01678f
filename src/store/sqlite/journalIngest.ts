import type Database from 'better-sqlite3';
import type { TaskRecord } from '../tasks.js';
import { startCheckpointer, type Checkpointer } from './checkpointer.js';
import { BUSY_TIMEOUT_MS, synchronousFor, type Durability } from './connection.js';
import { ingestJob, lastSeqs, refusedTasks, wantedClaims } from './ingestJob.js';
import { createJournal, journalDir, journalLine, taskLine, type Journal, type JournalBatch } from './journal.js';
import { replayOrphanJournals } from './orphanJournals.js';
import { runWriteJob, startWriteWorker, type WriteJob, type WriteWorker } from './writeWorker.js';
import { holdNewWriterLock } from './writerLock.js';

// The store's write path: batches and task states go to this process's journal with one write(2)
// (journal.ts), and move into SQLite in bulk, on the store's write thread, when the process has
// been idle a little or many events are waiting; the journals of stores that closed without
// moving theirs are replayed here too.

// Journaled batches move into SQLite when the process has been idle this long, or at once when
// this many events are waiting: one commit then carries ~100 turns' events, so a commit's fixed
// cost is shared, and other processes see new events within tens of milliseconds.
const INGEST_DELAY_MS = 20;
const MAX_PENDING_EVENTS = 1_000;
const ORPHAN_SCAN_INTERVAL_MS = 1_000;

interface JournaledTask {
  task: TaskRecord;
  line: string;
}

/** A journal closed to new batches, whose batches are on their way into the database. */
interface Rotated {
  journal: Journal;
  job: WriteJob;
  /** Events per session. */
  events: Map<string, number>;
  /** The task states in the journal, the last of each task, with its line. */
  tasks: Map<string, JournaledTask>;
}

export interface JournalIngestOptions {
  db: Database.Database;
  path: string;
  durability: Durability;
  /** A job committed: `events` of each session moved in, which now holds `lastSeqs`; other writers wait for the `wanted` session claims. */
  onCommitted(events: ReadonlyMap<string, number>, lastSeqs: ReadonlyMap<string, number>, wanted: readonly string[]): void;
}

export interface JournalIngest {
  readonly checkpointer: Checkpointer;
  /** This store's journal writer id, and the folder of every writer's journals and locks. */
  readonly writer: string;
  readonly dir: string;
  /** Replays the journals of writers whose stores are no longer open. */
  replayOrphans(): void;
  /** Queues a new session's batch without events: it is journaled with the next write, or before the next move. */
  create(batch: JournalBatch): void;
  /** Journals the queued creations, `batches` and `tasks` with one write(2); throws, having written nothing, if that fails. */
  write(batches: readonly JournalBatch[], tasks: readonly TaskRecord[]): void;
  /** The last state journaled of a task and not yet in the tasks table. */
  journaledTask(id: string): TaskRecord | undefined;
  /**
   * Commits every journaled batch before returning: on the write thread once it is up (this thread
   * only waits), else here. After a failed job it tries once more here, so the caller hears why.
   */
  flush(): Promise<void>;
  /**
   * Runs a job no turn waits for (ledger rows) on the write thread once it is up, else here: a
   * write transaction on this thread also waits, sleeping, whenever the write thread holds the
   * write lock. Call it before close().
   */
  run(job: WriteJob): Promise<unknown[]>;
  /** Flushes, runs `flushed`, then deletes the journal; the journal stays for the next store to replay if either fails. */
  close(flushed?: () => void): Promise<void>;
}

export function startJournalIngest({ db, path, durability, onCommitted }: JournalIngestOptions): JournalIngest {
  let worker: WriteWorker | undefined;
  // Started on first need (the thread takes ~50 ms to come up), and again if it died.
  const writer = (): WriteWorker => {
    if (worker === undefined || worker.failed()) worker = startWriteWorker(path, BUSY_TIMEOUT_MS, synchronousFor(durability));
    return worker;
  };
  const checkpointer = startCheckpointer(db, writer);
  const selectIngested = db.prepare<[name: string], { generation: number }>('SELECT generation FROM journals_ingested WHERE name = ?');
  const forgetJournal = db.prepare<[name: string]>('DELETE FROM journals_ingested WHERE name = ?');

  const dir = journalDir(path);
  const lock = holdNewWriterLock(dir);
  let generation = 0;
  const nextJournal = (): Journal => createJournal(dir, lock.writer, ++generation, durability);
  // Sessions created and not yet journaled (see create).
  let created: JournalBatch[] = [];
  let journal = nextJournal();
  // The batch lines of `journal`, not yet part of a write job, and their events per session.
  let pending: string[] = [];
  let pendingSessions = new Map<string, number>();
  // The last state journaled of each task, and its line.
  let pendingTasks = new Map<string, JournaledTask>();
  let pendingEvents = 0;
  // Task states journaled and not yet in the tasks table, the last of each task: reads see them.
  const journaledTasks = new Map<string, TaskRecord>();
  // Closed journals whose jobs have not committed yet, oldest first; they commit in this order.
  const rotated: Rotated[] = [];
  // Every rotation queues one job and every commit takes one off: rotations - rotated.length have committed.
  let rotations = 0;
  // Journals deleted since their batches committed: the next job drops their ingestion records.
  let deleted: string[] = [];
  let inFlight: Promise<void> | undefined;
  let ingestTimer: NodeJS.Timeout | undefined;
  let ingestFailure: unknown;
  let lastOrphanScan = 0;
  let closing = false;

  const replayOrphans = (): void => {
    lastOrphanScan = Date.now();
    replayOrphanJournals(dir, lock.writer, (orphan) => {
      const ingested = selectIngested.get(orphan.name);
      if (orphan.batches.length + orphan.tasks.length > 0 && (ingested === undefined || ingested.generation < orphan.generation)) {
        // Its result is not read: this process holds nothing of a dead process's sessions.
        runWriteJob(db, ingestJob(orphan.batches, orphan.tasks, orphan.name, orphan.generation, [], []));
        checkpointer.committed(orphan.events);
      }
      orphan.remove();
      forgetJournal.run(orphan.name);
    });
  };

  const journaled = (batches: readonly JournalBatch[], tasks: readonly TaskRecord[] = []): void => {
    // Created sessions count as batches without events: the job reports their seqs too, which tells their creators they are stored.
    const all = [...created, ...batches];
    const lines = all.map(journalLine);
    const taskLines = tasks.map(taskLine);
    journal.write([...lines, ...taskLines]);
    created = [];
    pending.push(...lines);
    for (const batch of all) {
      pendingSessions.set(batch.session, (pendingSessions.get(batch.session) ?? 0) + batch.events.length);
      pendingEvents += batch.events.length;
    }
    tasks.forEach((task, i) => {
      pendingTasks.set(task.id, { task, line: taskLines[i]! });
      journaledTasks.set(task.id, task);
    });
    pendingEvents += tasks.length;
  };

  /** Closes the journal to new batches and queues its job; appends go on in a new file. */
  const rotate = (): void => {
    if (created.length > 0) journaled([]);
    if (pending.length + pendingTasks.size === 0) return;
    // Only the last state of each task: its earlier ones are in the journal for a replay, but
    // writing each into the table cost the write thread ~50 µs a state (its document and indexes).
    const taskLines = [...pendingTasks.values()].map(({ line }) => line);
    rotated.push({ journal, job: ingestJob(pending, taskLines, journal.name, journal.generation, deleted, [...pendingSessions.keys()], lock.writer), events: pendingSessions, tasks: pendingTasks });
    rotations++;
    deleted = [];
    journal = nextJournal();
    pending = [];
    pendingSessions = new Map();
    pendingTasks = new Map();
    pendingEvents = 0;
  };

  /** Books a committed job: what the database now holds of each session, plus what is still journaled. */
  const committed = (done: Rotated, rows: readonly unknown[]): void => {
    rotated.shift();
    done.journal.remove();
    deleted.push(done.journal.name);
    checkpointer.committed([...done.events.values()].reduce((sum, count) => sum + count, 0));
    onCommitted(done.events, lastSeqs(rows), wantedClaims(rows));
    // A state saved again since stays, for the next job.
    for (const [id, { task }] of done.tasks) if (journaledTasks.get(id) === task) journaledTasks.delete(id);
    for (const id of refusedTasks(rows)) {
      // save() checked the owner; only another process that took the same id meanwhile gets here.
      process.stderr.write(`warning: the state of A2A task '${id}' was not stored: another agent or caller holds that task id\n`);
    }
  };

  /** Runs the queued jobs on this thread's connection: only while none is on the write thread. */
  const commitHere = (): void => {
    for (const next of [...rotated]) committed(next, runWriteJob(db, next.job));
  };

  const scheduleIngest = (): void => {
    if (pending.length + pendingTasks.size + created.length > 0 && ingestTimer === undefined && !closing) ingestTimer = setTimeout(ingestWhenIdle, INGEST_DELAY_MS).unref();
  };

  /**
   * Hands the oldest job to the write thread, unless one is there already (its end hands the next).
   * Until the thread is up, jobs run here: a short CLI run never waits for it.
   */
  const ingestInBackground = (): void => {
    try {
      rotate();
    } catch (error) {
      // Nothing is lost (what was not journaled stays queued); the next flush retries and reports it.
      ingestFailure = error;
      return;
    }
    const next = rotated[0];
    if (inFlight !== undefined || next === undefined) return;
    const thread = writer();
    thread.poll();
    if (!thread.ready()) {
      try {
        commitHere();
        ingestFailure = undefined;
      } catch (error) {
        ingestFailure = error;
      }
      return;
    }
    inFlight = thread
      .run(next.job)
      .then(
        (rows) => {
          committed(next, rows);
          ingestFailure = undefined;
        },
        (error: unknown) => {
          // Nothing is lost (the batches stay journaled); the next flush retries and reports it.
          ingestFailure = error;
        },
      )
      .finally(() => {
        inFlight = undefined;
        if (ingestFailure === undefined && rotated.length > 0) ingestInBackground();
        else scheduleIngest();
      });
  };

  function ingestWhenIdle(): void {
    ingestTimer = undefined;
    ingestInBackground();
    try {
      if (Date.now() - lastOrphanScan >= ORPHAN_SCAN_INTERVAL_MS) replayOrphans();
    } catch (error) {
      ingestFailure = error;
    }
  }

  const flush = async (): Promise<void> => {
    rotate();
    // Only what is journaled now: appends made meanwhile must not keep the caller waiting.
    const target = rotations;
    while (rotations - rotated.length < target) {
      worker?.poll();
      if (inFlight === undefined && worker?.ready()) ingestInBackground();
      if (inFlight !== undefined) {
        await inFlight;
        if (ingestFailure === undefined) continue;
      }
      try {
        commitHere();
        ingestFailure = undefined;
      } catch (error) {
        throw ingestFailure === undefined ? error : new Error(`storing journaled events failed: ${String(error)}`, { cause: ingestFailure });
      }
    }
  };

  try {
    replayOrphans();
  } catch (error) {
    journal.remove();
    lock.release({ forget: true });
    throw error;
  }

  return {
    checkpointer,
    writer: lock.writer,
    dir,
    replayOrphans,
    create(batch) {
      created.push(batch);
      scheduleIngest();
    },
    write(batches, tasks) {
      if (created.length + batches.length + tasks.length === 0) return;
      journaled(batches, tasks);
      if (inFlight !== undefined) worker?.poll();
      if (pendingEvents >= MAX_PENDING_EVENTS) ingestInBackground();
      else scheduleIngest();
    },
    journaledTask: (id) => journaledTasks.get(id),
    flush,
    run(job) {
      // Once closing, the thread may be gone: this connection stays open until the store closes.
      const thread = closing ? undefined : writer();
      thread?.poll();
      if (thread?.ready()) return thread.run(job);
      try {
        return Promise.resolve(runWriteJob(db, job));
      } catch (error) {
        return Promise.reject(error);
      }
    },
    async close(flushed) {
      closing = true;
      try {
        await flush();
        flushed?.();
        // Only now: if the ingest failed, the journal is what keeps the batches for the next open.
        journal.remove();
        for (const name of [...deleted, journal.name]) forgetJournal.run(name);
        lock.release({ forget: true });
      } finally {
        clearTimeout(ingestTimer);
        await worker?.stop();
        // A no-op once released above; else the journals left are replayed by the next store to open.
        lock.release();
      }
    },
  };
}
