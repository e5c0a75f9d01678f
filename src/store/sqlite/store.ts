import type Database from 'better-sqlite3';
import type { TurnEvent } from '../../core/events.js';
import type { ReadEventsOptions, SessionRecord, Store, StoredEvent, UsageQuery, UsageRow } from '../store.js';
import { startCheckpointer } from './checkpointer.js';
import { BUSY_TIMEOUT_MS, NO_LIMIT, openDatabase } from './connection.js';
import { createSqliteDocuments } from './documents.js';
import { createSqliteFacts } from './facts.js';
import type { TaskRecord } from '../tasks.js';
import { ingestJob, lastSeqs, refusedTasks } from './ingestJob.js';
import { claimOrphanJournals, createJournal, journalDir, journalLine, taskLine, type Journal, type JournalBatch } from './journal.js';
import { createSqliteTasks } from './tasks.js';
import { runWriteJob, startWriteWorker, type WriteJob, type WriteWorker } from './writeWorker.js';

export interface SqliteStoreOptions {
  /** Called with every SQL statement executed, parameters inlined (debugging; tests audit the append path). */
  onStatement?: (sql: string) => void;
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

interface JournaledTask {
  task: TaskRecord;
  line: string;
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

interface EventRow {
  seq: number;
  payload: string;
}

type UsageParams = [
  at: number,
  syndicate: string,
  sessionId: string | null,
  turnId: string,
  agent: string,
  provider: string,
  model: string,
  inputTokens: number,
  outputTokens: number,
  reasoningTokens: number,
  cachedInputTokens: number,
  latencyMs: number,
  outcome: string,
  turnStatus: string,
];

const SELECT_USAGE = `
  SELECT at, syndicate, session_id AS sessionId, turn_id AS turnId, agent, provider, model,
         input_tokens AS inputTokens, output_tokens AS outputTokens, reasoning_tokens AS reasoningTokens,
         cached_input_tokens AS cachedInputTokens, latency_ms AS latencyMs, outcome, turn_status AS turnStatus
  FROM usage_ledger`;

const LAST_SEQ = 'SELECT seq FROM events WHERE session_number = s.number ORDER BY seq DESC LIMIT 1';

// updatedAt and eventCount come from the session's last event (see the schema).
const SELECT_SESSIONS = `
  SELECT s.id, s.syndicate, s.created_at AS createdAt,
         coalesce(last.appended_at, s.created_at) AS updatedAt, coalesce(last.seq, 0) AS eventCount
  FROM sessions AS s
  LEFT JOIN events AS last ON last.session_number = s.number AND last.seq = (${LAST_SEQ})`;

function prepareStatements(db: Database.Database) {
  return {
    selectSession: db.prepare<[id: string], SessionRecord>(`${SELECT_SESSIONS} WHERE s.id = ?`),
    listSessions: db.prepare<[limit: number], SessionRecord>(`${SELECT_SESSIONS} ORDER BY updatedAt DESC, s.id LIMIT ?`),
    listSessionsOf: db.prepare<[syndicate: string, limit: number], SessionRecord>(
      `${SELECT_SESSIONS} WHERE s.syndicate = ? ORDER BY updatedAt DESC, s.id LIMIT ?`,
    ),
    selectEvents: db.prepare<[sessionId: string, afterSeq: number, limit: number], EventRow>(
      `SELECT seq, payload FROM events
       WHERE session_number = (SELECT number FROM sessions WHERE id = ?) AND seq > ? ORDER BY seq LIMIT ?`,
    ),
    deleteEvents: db.prepare<[sessionId: string]>('DELETE FROM events WHERE session_number = (SELECT number FROM sessions WHERE id = ?)'),
    deleteSession: db.prepare<[id: string]>('DELETE FROM sessions WHERE id = ?'),
    // A session's updatedAt is its last event's appended_at (see SELECT_SESSIONS).
    selectStale: db.prepare<[before: number], { number: number; id: string }>(
      `SELECT s.number, s.id FROM sessions AS s
       WHERE coalesce((SELECT appended_at FROM events WHERE session_number = s.number ORDER BY seq DESC LIMIT 1), s.created_at) < ?`,
    ),
    deleteEventsOf: db.prepare<[number: number]>('DELETE FROM events WHERE session_number = ?'),
    deleteSessionNumbered: db.prepare<[number: number]>('DELETE FROM sessions WHERE number = ?'),
    selectIngested: db.prepare<[name: string], { generation: number }>('SELECT generation FROM journals_ingested WHERE name = ?'),
    forgetJournal: db.prepare<[name: string]>('DELETE FROM journals_ingested WHERE name = ?'),
    insertUsage: db.prepare<UsageParams>(
      `INSERT INTO usage_ledger (at, syndicate, session_id, turn_id, agent, provider, model, input_tokens, output_tokens,
         reasoning_tokens, cached_input_tokens, latency_ms, outcome, turn_status)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    selectUsage: db.prepare<[since: number], UsageRow>(`${SELECT_USAGE} WHERE at >= ? ORDER BY at, id`),
    selectUsageOf: db.prepare<[since: number, syndicate: string], UsageRow>(`${SELECT_USAGE} WHERE at >= ? AND syndicate = ? ORDER BY at, id`),
  };
}

// Appends of several sessions were written in this turn of the event loop.
const SEVERAL_SESSIONS = Symbol('several sessions');


// Journaled batches move into SQLite, on the store's write thread, when the process has been idle
// this long, or at once when this many events are waiting: one commit then carries ~100 turns'
// events, so a commit's fixed cost is shared, and other processes see new events within tens of
// milliseconds.
const INGEST_DELAY_MS = 20;
const MAX_PENDING_EVENTS = 1_000;
const ORPHAN_SCAN_INTERVAL_MS = 1_000;
// A turn starts by opening its session. Turns that follow each other faster than this (a loop, a
// benchmark) skip re-reading it from the database: a read costs ~4 syscalls, as much as the
// turn's own appends. So another process's appends to the same session can take this long to
// show in openSession; getSession and readEvents always read.
const REVERIFY_AFTER_MS = 100;
// Sessions this process keeps in memory (see forgetSettledSessions), and the share kept once full.
const MAX_KNOWN_SESSIONS = 10_000;
const FORGET_DOWN_TO = 0.9;

export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): SqliteStore {
  const db = openDatabase(path, options.onStatement);
  const sql = prepareStatements(db);
  let worker: WriteWorker | undefined;
  // Started on first need (the thread takes ~50 ms to come up), and again if it died.
  const writer = (): WriteWorker => {
    if (worker === undefined || worker.failed()) worker = startWriteWorker(path, BUSY_TIMEOUT_MS);
    return worker;
  };
  const checkpointer = startCheckpointer(db, writer);

  const known = new Map<string, KnownSession>();
  // Sessions created and not yet journaled (see createSession).
  let created: JournalBatch[] = [];
  let journal = createJournal(journalDir(path));
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
  let closing: Promise<void> | undefined;

  const replayOrphans = (): void => {
    lastOrphanScan = Date.now();
    for (const orphan of claimOrphanJournals(journalDir(path))) {
      const ingested = sql.selectIngested.get(orphan.name);
      if (orphan.batches.length + orphan.tasks.length > 0 && (ingested === undefined || ingested.generation < orphan.generation)) {
        // Its result is not read: this process holds nothing of a dead process's sessions.
        runWriteJob(db, ingestJob(orphan.batches, orphan.tasks, orphan.name, orphan.generation, [], []));
        checkpointer.committed(orphan.events);
      }
      orphan.remove();
      sql.forgetJournal.run(orphan.name);
    }
  };

  /** Closes the journal to new batches and queues its job; appends go on in a new file. */
  const rotate = (): void => {
    journalCreated();
    if (pending.length + pendingTasks.size === 0) return;
    // Only the last state of each task: its earlier ones are in the journal for a replay, but
    // writing each into the table cost the write thread ~50 µs a state (its document and indexes).
    const taskLines = [...pendingTasks.values()].map(({ line }) => line);
    rotated.push({ journal, job: ingestJob(pending, taskLines, journal.name, journal.generation, deleted, [...pendingSessions.keys()]), events: pendingSessions, tasks: pendingTasks });
    rotations++;
    deleted = [];
    journal = createJournal(journalDir(path));
    pending = [];
    pendingSessions = new Map();
    pendingTasks = new Map();
    pendingEvents = 0;
  };

  const journaled = (batches: readonly JournalBatch[], tasks: readonly TaskRecord[] = []): void => {
    const lines = batches.map(journalLine);
    const taskLines = tasks.map(taskLine);
    journal.write([...lines, ...taskLines]);
    pending.push(...lines);
    for (const batch of batches) {
      pendingSessions.set(batch.session, (pendingSessions.get(batch.session) ?? 0) + batch.events.length);
      pendingEvents += batch.events.length;
    }
    tasks.forEach((task, i) => {
      pendingTasks.set(task.id, { task, line: taskLines[i]! });
      journaledTasks.set(task.id, task);
    });
    pendingEvents += tasks.length;
  };

  /** Books a committed job: what the database now holds of each session, plus what is still journaled. */
  const committed = (done: Rotated, rows: readonly unknown[]): void => {
    rotated.shift();
    done.journal.remove();
    deleted.push(done.journal.name);
    checkpointer.committed([...done.events.values()].reduce((sum, count) => sum + count, 0));
    for (const [id, lastSeq] of lastSeqs(rows)) {
      const session = known.get(id);
      if (session === undefined) continue;
      session.pending -= done.events.get(id)!;
      Object.assign(session, { lastSeq: lastSeq + session.pending, stored: true });
    }
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
    if (pending.length + pendingTasks.size + created.length > 0 && ingestTimer === undefined && closing === undefined) ingestTimer = setTimeout(ingestWhenIdle, INGEST_DELAY_MS).unref();
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

  /**
   * Commits every journaled batch before returning: on the write thread once it is up (this thread
   * only waits), else here. After a failed job it tries once more here, so the caller hears why.
   */
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
    known.set(row.id, { syndicate: row.syndicate, createdAt: row.createdAt, lastSeq: row.eventCount, updatedAt: row.updatedAt, pending: 0, verifiedAt: Date.now(), stored: true });
    return row;
  };

  /**
   * A new session is journaled as a batch without events, so creating one costs no commit; the
   * ingest creates its row, or keeps the row of another process that created it meanwhile. The
   * batch goes out with the next write of appends (the session's first events, as a rule), or
   * before the next rotation: a write(2) of its own cost a visible share of a short turn.
   */
  const createSession = (id: string, syndicate: string): SessionRecord => {
    const createdAt = Date.now();
    created.push({ session: id, syndicate, seq: 1, appendedAt: createdAt, events: [], payloads: [] });
    scheduleIngest();
    if (known.size >= MAX_KNOWN_SESSIONS) forgetSettledSessions();
    known.set(id, { syndicate, createdAt, lastSeq: 0, updatedAt: createdAt, pending: 0, verifiedAt: createdAt, stored: false });
    return { id, syndicate, createdAt, updatedAt: createdAt, eventCount: 0 };
  };

  /** Journals the sessions created since the last write; if that fails they stay queued for the next one. */
  const journalCreated = (): void => {
    if (created.length === 0) return;
    journaled(created);
    created = [];
  };

  /** The session as the database has it, remembered. */
  const loadSession = (id: string): SessionRecord | undefined => {
    const row = sql.selectSession.get(id);
    return row === undefined ? undefined : remember(row);
  };

  /** The session as the database has it plus this process's journaled events. */
  const currentSession = async (id: string): Promise<SessionRecord | undefined> => {
    const session = known.get(id);
    if (session !== undefined && (session.pending > 0 || !session.stored)) {
      const row = session.stored ? sql.selectSession.get(id) : undefined;
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
    // Sessions created since the last write go first, in the same write(2).
    const batches: JournalBatch[] = [...created];
    const outcomes = queue.map((append): { seq: number } | { error: Error } => {
      const session = knownSession(append.sessionId);
      if (session === undefined) {
        return { error: new Error(`cannot append to session '${append.sessionId}': it was not opened (call openSession first)`) };
      }
      if (append.events.length === 0) return { seq: session.lastSeq };
      batches.push({ session: append.sessionId, syndicate: session.syndicate, seq: session.lastSeq + 1, appendedAt, events: append.events, payloads: append.payloads });
      session.lastSeq += append.events.length;
      session.pending += append.events.length;
      session.updatedAt = appendedAt;
      return { seq: session.lastSeq };
    });
    try {
      if (batches.length + tasks.length > 0) journaled(batches, tasks.map(({ task }) => task));
      created = [];
    } catch (error) {
      for (const batch of batches) {
        const session = known.get(batch.session)!;
        session.lastSeq -= batch.events.length;
        session.pending -= batch.events.length;
      }
      for (const append of queue) append.reject(error);
      for (const task of tasks) task.reject(error);
      return;
    }
    if (inFlight !== undefined) worker?.poll();
    if (pendingEvents >= MAX_PENDING_EVENTS) ingestInBackground();
    else scheduleIngest();
    outcomes.forEach((outcome, i) => ('seq' in outcome ? queue[i]!.resolve(outcome.seq) : queue[i]!.reject(outcome.error)));
    for (const task of tasks) task.resolve();
  };

  replayOrphans();

  const deleteSession = db.transaction((id: string): boolean => {
    sql.deleteEvents.run(id);
    return sql.deleteSession.run(id).changes > 0;
  });

  const pruneSessions = db.transaction((before: number): string[] => {
    const stale = sql.selectStale.all(before);
    for (const { number } of stale) {
      sql.deleteEventsOf.run(number);
      sql.deleteSessionNumbered.run(number);
    }
    return stale.map(({ id }) => id);
  });

  const recordUsage = db.transaction((rows: readonly UsageRow[]): void => {
    for (const r of rows) {
      sql.insertUsage.run(
        r.at, r.syndicate, r.sessionId, r.turnId, r.agent, r.provider, r.model,
        r.inputTokens, r.outputTokens, r.reasoningTokens, r.cachedInputTokens, r.latencyMs, r.outcome, r.turnStatus,
      );
    }
  });

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
      journaled: (id) => journaledTasks.get(id),
      flush,
    }),
    facts: createSqliteFacts(db, () => checkpointer.committed()),
    async openSession(id: string, syndicate: string, options?: { isNew?: boolean }): Promise<SessionRecord> {
      if (options?.isNew) return createSession(id, syndicate);
      // Read first: a session is opened once per turn and almost always exists already, and a read
      // takes no write lock.
      const session = known.get(id);
      if (session !== undefined && Date.now() - session.verifiedAt < REVERIFY_AFTER_MS) {
        return { id, syndicate: session.syndicate, createdAt: session.createdAt, updatedAt: session.updatedAt, eventCount: session.lastSeq };
      }
      return (await currentSession(id)) ?? createSession(id, syndicate);
    },
    async getSession(id: string): Promise<SessionRecord | undefined> {
      return currentSession(id);
    },
    async listSessions({ syndicate, limit = NO_LIMIT }: { syndicate?: string; limit?: number } = {}): Promise<SessionRecord[]> {
      await flush();
      return syndicate === undefined ? sql.listSessions.all(limit) : sql.listSessionsOf.all(syndicate, limit);
    },
    async deleteSession(id: string): Promise<boolean> {
      // Journaled batches of the session would otherwise re-create it when they are ingested.
      await flush();
      known.delete(id);
      return deleteSession(id);
    },
    async pruneSessions(before: number): Promise<number> {
      // As deleteSession: journaled batches would otherwise re-create what is pruned.
      await flush();
      const pruned = pruneSessions.immediate(before);
      for (const id of pruned) known.delete(id);
      checkpointer.committed();
      return pruned.length;
    },
    async appendEvents(sessionId: string, events: readonly TurnEvent[]): Promise<number> {
      // Serialised up front: an event that cannot be stored fails its batch before anything is written.
      const payloads = events.map((event) => JSON.stringify(event));
      return new Promise((resolve, reject) => {
        if (!writeQueued()) scheduleWrite(sessionId);
        queued.push({ sessionId, events, payloads, resolve, reject });
      });
    },
    async readEvents(sessionId: string, { afterSeq = 0, limit = NO_LIMIT }: ReadEventsOptions = {}): Promise<StoredEvent[]> {
      if ((known.get(sessionId)?.pending ?? 0) > 0) await flush();
      return sql.selectEvents.all(sessionId, afterSeq, limit).map(
        (row): StoredEvent => ({ seq: row.seq, sessionId, event: JSON.parse(row.payload) as TurnEvent }),
      );
    },
    async recordUsage(rows: readonly UsageRow[]): Promise<void> {
      if (rows.length === 0) return;
      recordUsage.immediate(rows);
      checkpointer.committed();
    },
    async queryUsage({ since = Number.MIN_SAFE_INTEGER, syndicate }: UsageQuery = {}): Promise<UsageRow[]> {
      return syndicate === undefined ? sql.selectUsage.all(since) : sql.selectUsageOf.all(since, syndicate);
    },
    close(): Promise<void> {
      closing ??= (async () => {
        writeAppends();
        try {
          await flush();
          // Only now: if the ingest failed, the journal is what keeps the batches for the next open.
          journal.remove();
          for (const name of [...deleted, journal.name]) sql.forgetJournal.run(name);
        } finally {
          clearTimeout(ingestTimer);
          await worker?.stop();
          db.close();
        }
      })();
      return closing;
    },
  };
}
