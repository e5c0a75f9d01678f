import type Database from 'better-sqlite3';
import type { TurnEvent } from '../../core/events.js';
import { containsPattern, prefixEnd, type AppendOptions, type ListedSession, type ListSessionsOptions, type ReadEventsOptions, type SessionRecord, type Store, type StoredEvent, type UsageQuery, type UsageRow } from '../store.js';
import type { TaskRecord } from '../tasks.js';
import { NO_LIMIT, openDatabase, type Durability } from './connection.js';
import { createSqliteDocuments } from './documents.js';
import { createSqliteFacts } from './facts.js';
import type { JournalBatch } from './journal.js';
import { startJournalIngest, type JournalIngest } from './journalIngest.js';
import type { WriteJob } from './writeWorker.js';
import { createSqliteNotes } from './notes.js';
import { createSqliteUsers } from './users.js';
import { createSessionClaims, type SessionClaims } from './sessionClaims.js';
import { sessionTitle } from '../sessionTitle.js';
import { skillsColumn, usageRowOf, type StoredUsageRow } from '../usageSkills.js';
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

interface QueuedUsage {
  rows: readonly UsageRow[];
  resolve(): void;
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
  skills: string | null,
];

const SELECT_USAGE = `
  SELECT at, syndicate, session_id AS sessionId, turn_id AS turnId, agent, provider, model,
         input_tokens AS inputTokens, output_tokens AS outputTokens, reasoning_tokens AS reasoningTokens,
         cached_input_tokens AS cachedInputTokens, latency_ms AS latencyMs, outcome, turn_status AS turnStatus, skills
  FROM usage_ledger`;

const INSERT_USAGE = `
  INSERT INTO usage_ledger (at, syndicate, session_id, turn_id, agent, provider, model, input_tokens, output_tokens,
    reasoning_tokens, cached_input_tokens, latency_ms, outcome, turn_status, skills)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** Ledger rows as a write job: one transaction, on the store's write thread once it is up. */
function usageJob(rows: readonly UsageRow[]): WriteJob {
  const runs = rows.map((r): readonly [number, UsageParams] => [
    0,
    [r.at, r.syndicate, r.sessionId, r.turnId, r.agent, r.provider, r.model, r.inputTokens, r.outputTokens, r.reasoningTokens, r.cachedInputTokens, r.latencyMs, r.outcome, r.turnStatus, skillsColumn(r.skills)],
  ]);
  return { statements: [INSERT_USAGE], named: {}, runs, reads: [] };
}

// How long ledger rows wait for others to share their commit (and the message that hands them to
// the write thread): a server's turns each record their own rows as they end.
const USAGE_BATCH_MS = 20;

const LAST_SEQ = 'SELECT seq FROM events WHERE session_number = s.number ORDER BY seq DESC LIMIT 1';

// updatedAt and eventCount come from the session's last event (see the schema).
const selectSessions = (columns: string): string => `
  SELECT s.id, s.syndicate, s.created_at AS createdAt,
         coalesce(last.appended_at, s.created_at) AS updatedAt, coalesce(last.seq, 0) AS eventCount${columns}
  FROM sessions AS s
  LEFT JOIN events AS last ON last.session_number = s.number AND last.seq = (${LAST_SEQ})`;
const SELECT_SESSIONS = selectSessions('');
// A list's rows carry their titles too.
const SELECT_LISTED = selectSessions(', s.title');

function prepareStatements(db: Database.Database) {
  return {
    selectSession: db.prepare<[id: string], SessionRecord>(`${SELECT_SESSIONS} WHERE s.id = ?`),
    selectEvents: db.prepare<[sessionId: string, afterSeq: number, limit: number], EventRow>(
      `SELECT seq, payload FROM events
       WHERE session_number = (SELECT number FROM sessions WHERE id = ?) AND seq > ? ORDER BY seq LIMIT ?`,
    ),
    deleteEvents: db.prepare<[sessionId: string]>('DELETE FROM events WHERE session_number = (SELECT number FROM sessions WHERE id = ?)'),
    deleteSession: db.prepare<[id: string]>('DELETE FROM sessions WHERE id = ?'),
    // Notes are keyed by the session id, not its row (notesSchema.ts): they go with the session by id.
    deleteNotes: db.prepare<[sessionId: string]>('DELETE FROM session_notes WHERE session_id = ?'),
    // A session's updatedAt is its last event's appended_at (see SELECT_SESSIONS).
    selectStale: db.prepare<[before: number], { number: number; id: string }>(
      `SELECT s.number, s.id FROM sessions AS s
       WHERE coalesce((SELECT appended_at FROM events WHERE session_number = s.number ORDER BY seq DESC LIMIT 1), s.created_at) < ?`,
    ),
    deleteEventsOf: db.prepare<[number: number]>('DELETE FROM events WHERE session_number = ?'),
    deleteSessionNumbered: db.prepare<[number: number]>('DELETE FROM sessions WHERE number = ?'),
    selectUsage: db.prepare<[since: number], StoredUsageRow>(`${SELECT_USAGE} WHERE at >= ? ORDER BY at, id`),
    selectUsageOf: db.prepare<[since: number, syndicate: string], StoredUsageRow>(`${SELECT_USAGE} WHERE at >= ? AND syndicate = ? ORDER BY at, id`),
  };
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
  const sql = prepareStatements(db);
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

  // One prepared statement per combination of filters, so each keeps its own plan (the id range
  // scans the sessions' id index; a catch-all `? IS NULL OR` would scan the table).
  const listStatements = new Map<string, Database.Statement<unknown[], ListedSession>>();
  const listSessions = ({ syndicate, idPrefix, limit = NO_LIMIT, after, query }: ListSessionsOptions): ListedSession[] => {
    const where: string[] = [];
    const params: unknown[] = [];
    if (syndicate !== undefined) {
      where.push('s.syndicate = ?');
      params.push(syndicate);
    }
    if (idPrefix) {
      where.push('s.id >= ? AND s.id < ?');
      params.push(idPrefix, prefixEnd(idPrefix));
    }
    if (query) {
      // LIKE ignores the case of ASCII letters (case_sensitive_like is off).
      where.push("(s.title LIKE ? ESCAPE '\\' OR s.id LIKE ? ESCAPE '\\')");
      params.push(containsPattern(query), containsPattern(query));
    }
    const page = after === undefined ? '' : 'WHERE updatedAt < ? OR (updatedAt = ? AND id > ?)';
    if (after !== undefined) params.push(after.updatedAt, after.updatedAt, after.id);
    const key = `${syndicate !== undefined}${Boolean(idPrefix)}${Boolean(query)}${after !== undefined}`;
    let statement = listStatements.get(key);
    if (statement === undefined) {
      const filtered = `${SELECT_LISTED}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}`;
      statement = db.prepare<unknown[], ListedSession>(`SELECT * FROM (${filtered}) ${page} ORDER BY updatedAt DESC, id LIMIT ?`);
      listStatements.set(key, statement);
    }
    return statement.all(...params, limit);
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

  const deleteSession = db.transaction((id: string): boolean => {
    sql.deleteEvents.run(id);
    sql.deleteNotes.run(id);
    return sql.deleteSession.run(id).changes > 0;
  });

  const pruneSessions = db.transaction((before: number): string[] => {
    const stale = sql.selectStale.all(before);
    for (const { number, id } of stale) {
      sql.deleteEventsOf.run(number);
      sql.deleteNotes.run(id);
      sql.deleteSessionNumbered.run(number);
    }
    return stale.map(({ id }) => id);
  });

  // Ledger rows recorded within USAGE_BATCH_MS share a commit, on the write thread: a server opens
  // a ledger per turn, so each turn's rows would otherwise commit alone, and a commit on this
  // thread cost its event loop 50-80 us, or milliseconds of sleep whenever the write thread held
  // the write lock (server bench: 2-4% of these commits took over 1 ms, 12-13 ms at the p99). A
  // caller still hears back only once its rows are committed.
  let queuedUsage: QueuedUsage[] = [];
  let usageWrites: Promise<void> = Promise.resolve();
  const commitUsage = async (queue: readonly QueuedUsage[]): Promise<void> => {
    try {
      await ingest.run(usageJob(queue.flatMap(({ rows }) => rows)));
    } catch {
      // Each caller hears of its own rows: one refused row must not fail the other turns'.
      await Promise.all(queue.map(({ rows, resolve, reject }) => ingest.run(usageJob(rows)).then(() => resolve(), reject)));
      checkpointer.committed();
      return;
    }
    checkpointer.committed();
    for (const { resolve } of queue) resolve();
  };
  const writeUsage = (): void => {
    const queue = queuedUsage;
    queuedUsage = [];
    // Already written by close().
    if (queue.length === 0) return;
    usageWrites = usageWrites.then(() => commitUsage(queue));
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
      return listSessions(options);
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
      return sql.selectEvents.all(sessionId, afterSeq, limit).map(
        (row): StoredEvent => ({ seq: row.seq, sessionId, event: JSON.parse(row.payload) as TurnEvent }),
      );
    },
    recordUsage(rows: readonly UsageRow[]): Promise<void> {
      if (rows.length === 0) return Promise.resolve();
      return new Promise((resolve, reject) => {
        if (queuedUsage.length === 0) setTimeout(writeUsage, USAGE_BATCH_MS);
        queuedUsage.push({ rows, resolve, reject });
      });
    },
    async queryUsage({ since = Number.MIN_SAFE_INTEGER, syndicate }: UsageQuery = {}): Promise<UsageRow[]> {
      return (syndicate === undefined ? sql.selectUsage.all(since) : sql.selectUsageOf.all(since, syndicate)).map(usageRowOf);
    },
    close(): Promise<void> {
      closing ??= (async () => {
        writeAppends();
        writeUsage();
        try {
          await usageWrites;
          await ingest.close(() => claims.releaseAll());
        } finally {
          db.close();
        }
      })();
      return closing;
    },
  };
}
