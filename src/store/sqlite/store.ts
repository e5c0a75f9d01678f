import type { TurnEvent } from '../../core/events.js';
import type { AppendOptions, ListedSession, ListSessionsOptions, ReadEventsOptions, SessionRecord, Store, StoredEvent } from '../store.js';
import type { TaskRecord } from '../tasks.js';
import { NO_LIMIT, openDatabase, type Durability } from './connection.js';
import { createSqliteDocuments } from './documents.js';
import { createSqliteFacts } from './facts.js';
import type { JournalBatch } from './journal.js';
import { startJournalIngest, type JournalIngest } from './journalIngest.js';
import { createSqliteNotes } from './notes.js';
import { createSqliteUsers } from './users.js';
import { createSessionClaims, type SessionClaims } from './sessionClaims.js';
import { sessionTitle } from '../sessionTitle.js';
import { createSessionRows } from './sessionRows.js';
import { createSqliteUsageLedger } from './usageLedger.js';
import { createSqliteTasks } from './tasks.js';
import { createSqliteBackgroundJobs, createSqliteDreamRuns } from './backgroundJobs.js';
import { createSqliteSchedules } from './schedules.js';

export interface SqliteStoreOptions {
  /** Called with every SQL statement executed, parameters inlined (debugging; tests audit the append path). */
  onStatement?: (sql: string) => void;
  /** What an acknowledged write survives (see Durability); default `write`. */
  durability?: Durability;
}

export interface SqliteStore extends Store {
  readonly path: string;
}

interface QueuedAppend {
  sessionId: string;
  events: readonly TurnEvent[];
  payloads: readonly string[];
  resolve(lastSeq: number): void;
  reject(error: unknown): void;
}

interface QueuedTask {
  task: TaskRecord;
  resolve(): void;
  reject(error: unknown): void;
}

/** A session as this process knows it, counting its batches still in the journal. */
interface KnownSession {
  syndicate: string;
  createdAt: number;
  lastSeq: number;
  updatedAt: number;
  /** Events appended by this process that are in the journal but not yet in the events table. */
  pending: number;
  /** When the database last confirmed what this process knows of the session. */
  verifiedAt: number;
  /** False while the session's creation is still only in the journal. */
  stored: boolean;
  /** Created with an id this process minted (isNew): until stored, no other process can have appended to it. */
  minted: boolean;
}

// Appends of several sessions were written in this turn of the event loop.
const SEVERAL_SESSIONS = Symbol('several sessions');

// A turn starts by opening its session. Turns that follow each other faster than this (a loop, a
// benchmark) skip re-reading it from the database: a read costs ~4 syscalls, as much as the
// turn's own appends. So another process's appends to the same session can take this long to
// show in openSession; getSession and readEvents always read.
const REVERIFY_AFTER_MS = 100;
// Sessions this process keeps in memory (see forgetSettledSessions), and the share kept once full.
const MAX_KNOWN_SESSIONS = 10_000;
const FORGET_DOWN_TO = 0.9;

export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): SqliteStore {
  const durability = options.durability ?? 'write';
  const db = openDatabase(path, options.onStatement, durability);
  const sessionRows = createSessionRows(db);
  const usage = createSqliteUsageLedger(db, (job) => ingest.run(job), () => checkpointer.committed());
  const known = new Map<string, KnownSession>();
  let closing: Promise<void> | undefined;
  let ingest: JournalIngest;
  let claims: SessionClaims;
  try {
    ingest = startJournalIngest({
      db,
      path,
      durability,
      onCommitted(events, lastSeqs, wanted) {
        for (const [id, lastSeq] of lastSeqs) {
          const session = known.get(id);
          if (session === undefined) continue;
          session.pending -= events.get(id)!;
          Object.assign(session, { lastSeq: lastSeq + session.pending, stored: true });
        }
        claims.committed(wanted, (id) => known.get(id)?.pending ?? 0);
      },
    });
    claims = createSessionClaims({
      db,
      dir: ingest.dir,
      writer: ingest.writer,
      replayOrphans: ingest.replayOrphans,
      unshared: (id) => known.get(id)?.minted === true && !known.get(id)!.stored,
      // No other writer appends while this one holds the claim: the seqs it gives from here are final.
      taken(id, lastSeq) {
        const session = knownSession(id);
        if (session !== undefined) session.lastSeq = lastSeq + session.pending;
        return session !== undefined;
      },
    });
  } catch (error) {
    db.close();
    throw error;
  }
  const { checkpointer, flush } = ingest;

  /**
   * Drops the oldest sessions whose every event is in the database: a server starting a
   * conversation per request would otherwise keep one entry per conversation for as long as it
   * runs. A dropped session is read again when next used.
   */
  const forgetSettledSessions = (): void => {
    for (const [id, session] of known) {
      if (known.size < MAX_KNOWN_SESSIONS * FORGET_DOWN_TO) return;
      if (session.pending === 0 && session.stored) known.delete(id);
    }
  };

  const remember = (row: SessionRecord): SessionRecord => {
    known.set(row.id, { syndicate: row.syndicate, createdAt: row.createdAt, lastSeq: row.eventCount, updatedAt: row.updatedAt, pending: 0, verifiedAt: Date.now(), stored: true, minted: false });
    return row;
  };

  /**
   * A new session is journaled as a batch without events, so creating one costs no commit; the
   * ingest creates its row, or keeps the row of another process that created it meanwhile. The
   * batch goes out with the next write of appends (the session's first events, as a rule), or
   * before the next rotation: a write(2) of its own cost a visible share of a short turn.
   */
  const createSession = (id: string, syndicate: string, minted = false): SessionRecord => {
    const createdAt = Date.now();
    ingest.create({ session: id, syndicate, seq: 1, appendedAt: createdAt, events: [], payloads: [] });
    if (known.size >= MAX_KNOWN_SESSIONS) forgetSettledSessions();
    known.set(id, { syndicate, createdAt, lastSeq: 0, updatedAt: createdAt, pending: 0, verifiedAt: createdAt, stored: false, minted });
    return { id, syndicate, createdAt, updatedAt: createdAt, eventCount: 0 };
  };

  /** The session as the database has it, remembered. */
  const loadSession = (id: string): SessionRecord | undefined => {
    const row = sessionRows.session(id);
    return row === undefined ? undefined : remember(row);
  };

  /** The session as the database has it plus this process's journaled events. */
  const currentSession = async (id: string): Promise<SessionRecord | undefined> => {
    const session = known.get(id);
    if (session !== undefined && (session.pending > 0 || !session.stored)) {
      const row = session.stored ? sessionRows.session(id) : undefined;
      // Unchanged by other processes since our batches were journaled: they follow what it holds.
      if (row?.eventCount === session.lastSeq - session.pending) {
        session.verifiedAt = Date.now();
        return { ...row, eventCount: session.lastSeq, updatedAt: Math.max(row.updatedAt, session.updatedAt) };
      }
      await flush();
    }
    return loadSession(id);
  };

  const knownSession = (id: string): KnownSession | undefined => {
    if (!known.has(id)) loadSession(id);
    return known.get(id);
  };

  let queued: QueuedAppend[] = [];
  let queuedTasks: QueuedTask[] = [];
  const writeQueued = (): boolean => queued.length > 0 || queuedTasks.length > 0;

  // Every caller hears back only once its batch is written. Appends go out at the end of their
  // microtask drain while only one session has written in this turn of the event loop, so a lone
  // turn never waits for the loop. Once others have (concurrent requests), they wait for the
  // loop's check phase and share one write(2): writing at every drain, a server answering 64
  // requests at once managed 20% fewer requests per second (the A2A bench).
  let loopTurnWriter: string | typeof SEVERAL_SESSIONS | undefined;
  const scheduleWrite = (sessionId: string): void => {
    if (loopTurnWriter === undefined || loopTurnWriter === sessionId) queueMicrotask(writeAppends);
    else setImmediate(writeAppends);
  };
  const noteWriter = (queue: readonly QueuedAppend[]): void => {
    const writer = queue.every((append) => append.sessionId === queue[0]!.sessionId) ? queue[0]!.sessionId : SEVERAL_SESSIONS;
    if (loopTurnWriter === undefined) setImmediate(() => (loopTurnWriter = undefined));
    loopTurnWriter = loopTurnWriter === undefined || loopTurnWriter === writer ? writer : SEVERAL_SESSIONS;
  };
  const writeAppends = (): void => {
    const queue = queued;
    const tasks = queuedTasks;
    queued = [];
    queuedTasks = [];
    if (queue.length > 0) noteWriter(queue);
    const appendedAt = Date.now();
    const batches: JournalBatch[] = [];
    const outcomes = queue.map((append): { seq: number } | { error: unknown } => {
      let session: KnownSession | undefined;
      try {
        session = knownSession(append.sessionId);
      } catch (error) {
        return { error };
      }
      if (session === undefined) {
        return { error: new Error(`cannot append to session '${append.sessionId}': it was not opened (call openSession first)`) };
      }
      if (append.events.length === 0) return { seq: session.lastSeq };
      const title = session.lastSeq === 0 ? sessionTitle(append.events) : null;
      batches.push({ session: append.sessionId, syndicate: session.syndicate, seq: session.lastSeq + 1, appendedAt, events: append.events, payloads: append.payloads, title });
      session.lastSeq += append.events.length;
      session.pending += append.events.length;
      session.updatedAt = appendedAt;
      return { seq: session.lastSeq };
    });
    try {
      ingest.write(batches, tasks.map(({ task }) => task));
    } catch (error) {
      for (const append of queue) if (append.events.length > 0) claims.end(append.sessionId);
      for (const batch of batches) {
        const session = known.get(batch.session)!;
        session.lastSeq -= batch.events.length;
        session.pending -= batch.events.length;
      }
      for (const append of queue) append.reject(error);
      for (const task of tasks) task.reject(error);
      return;
    }
    for (const append of queue) if (append.events.length > 0) claims.end(append.sessionId);
    outcomes.forEach((outcome, i) => ('seq' in outcome ? queue[i]!.resolve(outcome.seq) : queue[i]!.reject(outcome.error)));
    for (const task of tasks) task.resolve();
  };

  const notes = createSqliteNotes(db);
  const openSession = async (id: string, syndicate: string, options?: { isNew?: boolean }): Promise<SessionRecord> => {
    if (options?.isNew) return createSession(id, syndicate, true);
    // Read first: a session is opened once per turn and almost always exists already, and a read
    // takes no write lock.
    const session = known.get(id);
    if (session !== undefined && Date.now() - session.verifiedAt < REVERIFY_AFTER_MS) {
      return { id, syndicate: session.syndicate, createdAt: session.createdAt, updatedAt: session.updatedAt, eventCount: session.lastSeq };
    }
    return (await currentSession(id)) ?? createSession(id, syndicate);
  };

  return {
    path,
    documents: createSqliteDocuments(db, () => checkpointer.committed()),
    tasks: createSqliteTasks(db, {
      journal: (task) =>
        new Promise((resolve, reject) => {
          // Saved states are written with the appends: one write(2) per turn of the event loop.
          if (!writeQueued()) queueMicrotask(writeAppends);
          queuedTasks.push({ task, resolve, reject });
        }),
      journaled: ingest.journaledTask,
      flush,
    }),
    facts: createSqliteFacts(db, () => checkpointer.committed()),
    notes,
    backgroundJobs: createSqliteBackgroundJobs(db),
    dreamRuns: createSqliteDreamRuns(db),
    schedules: createSqliteSchedules(db),
    users: createSqliteUsers(db),
    openSession,
    async getSession(id: string): Promise<SessionRecord | undefined> {
      return currentSession(id);
    },
    async listSessions(options: ListSessionsOptions = {}): Promise<ListedSession[]> {
      await flush();
      return sessionRows.list(options);
    },
    async deleteSession(id: string): Promise<boolean> {
      // Journaled batches of the session would otherwise re-create it when they are ingested.
      await flush();
      known.delete(id);
      return sessionRows.delete(id);
    },
    async pruneSessions(before: number): Promise<number> {
      // As deleteSession: journaled batches would otherwise re-create what is pruned.
      await flush();
      const pruned = sessionRows.prune(before);
      for (const id of pruned) known.delete(id);
      checkpointer.committed();
      return pruned.length;
    },
    async appendEvents(sessionId: string, events: readonly TurnEvent[], options?: AppendOptions): Promise<number> {
      // Serialised up front: an event that cannot be stored fails its batch before anything is written.
      const payloads = events.map((event) => JSON.stringify(event));
      const closed = () => new Error(`cannot append to session '${sessionId}': the store is closed`);
      if (closing !== undefined) throw closed();
      if (options?.clearNotes) await notes.clear(sessionId);
      if (options?.openFor !== undefined) await openSession(sessionId, options.openFor);
      if (events.length > 0) await claims.enter(sessionId, () => (closing === undefined ? undefined : closed()));
      return new Promise((resolve, reject) => {
        if (!writeQueued()) scheduleWrite(sessionId);
        queued.push({ sessionId, events, payloads, resolve, reject });
      });
    },
    async readEvents(sessionId: string, { afterSeq = 0, limit = NO_LIMIT }: ReadEventsOptions = {}): Promise<StoredEvent[]> {
      if ((known.get(sessionId)?.pending ?? 0) > 0) await flush();
      return sessionRows.events(sessionId, afterSeq, limit).map(
        (row): StoredEvent => ({ seq: row.seq, sessionId, event: JSON.parse(row.payload) as TurnEvent }),
      );
    },
    recordUsage: usage.recordUsage,
    queryUsage: usage.queryUsage,
    close(): Promise<void> {
      closing ??= (async () => {
        writeAppends();
        const usageWritten = usage.writeQueued();
        try {
          await usageWritten;
          await ingest.close(() => claims.releaseAll());
        } finally {
          db.close();
        }
      })();
      return closing;
    },
  };
}
