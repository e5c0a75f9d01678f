import type Database from 'better-sqlite3';
import type { TurnEvent } from '../../runtime/events.js';
import type { ReadEventsOptions, SessionRecord, Store, StoredEvent, UsageQuery, UsageRow } from '../store.js';
import { startCheckpointer } from './checkpointer.js';
import { openDatabase } from './connection.js';
import { claimOrphanJournals, createJournal, journalDir, type JournalBatch } from './journal.js';
import { createSqliteDocuments } from './documents.js';
import { createSqliteFacts } from './facts.js';
import { createSqliteTasks } from './tasks.js';

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

interface EventRow {
  seq: number;
  payload: string;
}

interface SessionTail {
  number: number;
  /** null for a session without events. */
  lastSeq: number | null;
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
    insertSession: db.prepare<[id: string, syndicate: string, createdAt: number]>(
      'INSERT INTO sessions (id, syndicate, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING',
    ),
    selectSession: db.prepare<[id: string], SessionRecord>(`${SELECT_SESSIONS} WHERE s.id = ?`),
    listSessions: db.prepare<[limit: number], SessionRecord>(`${SELECT_SESSIONS} ORDER BY updatedAt DESC, s.id LIMIT ?`),
    listSessionsOf: db.prepare<[syndicate: string, limit: number], SessionRecord>(
      `${SELECT_SESSIONS} WHERE s.syndicate = ? ORDER BY updatedAt DESC, s.id LIMIT ?`,
    ),
    selectTail: db.prepare<[id: string], SessionTail>(`SELECT s.number, (${LAST_SEQ}) AS lastSeq FROM sessions AS s WHERE s.id = ?`),
    insertEvent: db.prepare<
      [sessionNumber: number, seq: number, appendedAt: number, type: string, agent: string, turnId: string, at: number, payload: string]
    >('INSERT INTO events (session_number, seq, appended_at, type, agent, turn_id, at, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
    selectEvents: db.prepare<[sessionId: string, afterSeq: number, limit: number], EventRow>(
      `SELECT seq, payload FROM events
       WHERE session_number = (SELECT number FROM sessions WHERE id = ?) AND seq > ? ORDER BY seq LIMIT ?`,
    ),
    deleteEvents: db.prepare<[sessionId: string]>('DELETE FROM events WHERE session_number = (SELECT number FROM sessions WHERE id = ?)'),
    deleteSession: db.prepare<[id: string]>('DELETE FROM sessions WHERE id = ?'),
    selectIngested: db.prepare<[name: string], { generation: number }>('SELECT generation FROM journals_ingested WHERE name = ?'),
    recordIngested: db.prepare<[name: string, generation: number]>(
      'INSERT INTO journals_ingested (name, generation) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET generation = excluded.generation',
    ),
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

// SQLite reads a negative LIMIT as "no limit".
const NO_LIMIT = -1;

// Journaled batches move into SQLite when the process has been idle this long, or at once when
// this many events are waiting: one commit then carries ~100 turns' events, so a commit's fixed
// cost is shared, and other processes see new events within tens of milliseconds.
const INGEST_DELAY_MS = 20;
const MAX_PENDING_EVENTS = 1_000;
const ORPHAN_SCAN_INTERVAL_MS = 1_000;
// A turn starts by opening its session. Turns that follow each other faster than this (a loop, a
// benchmark) skip re-reading it from the database: a read costs ~4 syscalls, as much as the
// turn's own appends. So another process's appends to the same session can take this long to
// show in openSession; getSession and readEvents always read.
const REVERIFY_AFTER_MS = 100;

export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): SqliteStore {
  const db = openDatabase(path, options.onStatement);
  const sql = prepareStatements(db);
  const checkpointer = startCheckpointer(db, path);

  // Run IMMEDIATE: each batch reads its session's last seq before inserting, and a deferred
  // transaction that read first could not upgrade to a writer once another process had committed.
  // A batch goes after whatever the session holds now: normally exactly the seq its writer gave it;
  // if another process appended to the session in between, after those events (batches stay whole
  // and in their writer's order; the writer learns the final count at its next openSession).
  const ingestBatches = db.transaction((batches: readonly JournalBatch[], journal: string, generation: number): Map<string, number> => {
    const lastSeqs = new Map<string, number>();
    const numbers = new Map<string, number>();
    for (const batch of batches) {
      let number = numbers.get(batch.session);
      let lastSeq = lastSeqs.get(batch.session) ?? 0;
      if (number === undefined) {
        let tail = sql.selectTail.get(batch.session);
        // A session created in the journal, or deleted by another process since (the batch
        // re-creates it rather than being lost).
        if (tail === undefined) {
          sql.insertSession.run(batch.session, batch.syndicate, batch.appendedAt);
          tail = sql.selectTail.get(batch.session)!;
        }
        number = tail.number;
        lastSeq = tail.lastSeq ?? 0;
        numbers.set(batch.session, number);
      }
      for (const [index, event] of batch.events.entries()) {
        sql.insertEvent.run(number, lastSeq + 1 + index, batch.appendedAt, event.type, event.agent, event.turnId, event.at, batch.payloads[index]!);
      }
      lastSeqs.set(batch.session, lastSeq + batch.events.length);
    }
    sql.recordIngested.run(journal, generation);
    return lastSeqs;
  });

  const journal = createJournal(journalDir(path));
  const known = new Map<string, KnownSession>();
  let pending: JournalBatch[] = [];
  let pendingEvents = 0;
  let ingestTimer: NodeJS.Timeout | undefined;
  let ingestFailure: unknown;
  let lastOrphanScan = 0;

  const replayOrphans = (): void => {
    lastOrphanScan = Date.now();
    for (const orphan of claimOrphanJournals(journalDir(path))) {
      const ingested = sql.selectIngested.get(orphan.name);
      if (orphan.batches.length > 0 && (ingested === undefined || ingested.generation < orphan.generation)) {
        ingestBatches.immediate(orphan.batches, orphan.name, orphan.generation);
        checkpointer.committed(orphan.batches.reduce((rows, batch) => rows + batch.events.length, 0));
      }
      orphan.remove();
      sql.forgetJournal.run(orphan.name);
    }
  };

  /** Moves every journaled batch of this process into the events table in one commit. */
  const ingest = (): void => {
    if (pending.length === 0) return;
    const lastSeqs = ingestBatches.immediate(pending, journal.name, journal.generation);
    checkpointer.committed(pendingEvents);
    pending = [];
    pendingEvents = 0;
    journal.reset();
    for (const [id, lastSeq] of lastSeqs) {
      const session = known.get(id);
      if (session) Object.assign(session, { lastSeq, pending: 0, stored: true });
    }
  };

  const ingestWhenIdle = (): void => {
    ingestTimer = undefined;
    try {
      ingest();
      if (Date.now() - lastOrphanScan >= ORPHAN_SCAN_INTERVAL_MS) replayOrphans();
    } catch (error) {
      // Nothing is lost (the batches stay journaled); the next call on the store retries and reports it.
      ingestFailure = error;
    }
  };

  /** Ingests now, reporting a failure of an earlier idle ingest if this one fails too. */
  const ingestNow = (): void => {
    try {
      ingest();
      ingestFailure = undefined;
    } catch (error) {
      throw ingestFailure === undefined ? error : new Error(`storing journaled events failed: ${String(error)}`, { cause: ingestFailure });
    }
  };

  const remember = (row: SessionRecord): SessionRecord => {
    known.set(row.id, { syndicate: row.syndicate, createdAt: row.createdAt, lastSeq: row.eventCount, updatedAt: row.updatedAt, pending: 0, verifiedAt: Date.now(), stored: true });
    return row;
  };

  const scheduleIngest = (): void => {
    if (pending.length > 0 && ingestTimer === undefined) ingestTimer = setTimeout(ingestWhenIdle, INGEST_DELAY_MS).unref();
  };

  /**
   * A new session is journaled as a batch without events, so creating one costs no commit; the
   * ingest creates its row, or keeps the row of another process that created it meanwhile.
   */
  const createSession = (id: string, syndicate: string): SessionRecord => {
    const createdAt = Date.now();
    const batch: JournalBatch = { session: id, syndicate, seq: 1, appendedAt: createdAt, events: [], payloads: [] };
    journal.write([batch]);
    pending.push(batch);
    scheduleIngest();
    known.set(id, { syndicate, createdAt, lastSeq: 0, updatedAt: createdAt, pending: 0, verifiedAt: createdAt, stored: false });
    return { id, syndicate, createdAt, updatedAt: createdAt, eventCount: 0 };
  };

  /** The session as the database has it plus this process's journaled events. */
  const currentSession = (id: string): SessionRecord | undefined => {
    const session = known.get(id);
    if (session !== undefined && (session.pending > 0 || !session.stored)) {
      const row = session.stored ? sql.selectSession.get(id) : undefined;
      // Unchanged by other processes since our batches were journaled: they follow what it holds.
      if (row?.eventCount === session.lastSeq - session.pending) {
        session.verifiedAt = Date.now();
        return { ...row, eventCount: session.lastSeq, updatedAt: Math.max(row.updatedAt, session.updatedAt) };
      }
      ingestNow();
    }
    const row = sql.selectSession.get(id);
    return row === undefined ? undefined : remember(row);
  };

  const knownSession = (id: string): KnownSession | undefined => {
    if (!known.has(id)) currentSession(id);
    return known.get(id);
  };

  let queued: QueuedAppend[] = [];

  // Appends requested in the same microtask drain (concurrent turns) share one write(2), and every
  // caller hears back only once its batch is written.
  const writeAppends = (): void => {
    const queue = queued;
    queued = [];
    if (queue.length === 0) return;
    if (pendingEvents >= MAX_PENDING_EVENTS) {
      try {
        ingestNow();
      } catch (error) {
        for (const append of queue) append.reject(error);
        return;
      }
    }
    const appendedAt = Date.now();
    const batches: JournalBatch[] = [];
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
      if (batches.length > 0) journal.write(batches);
    } catch (error) {
      for (const batch of batches) {
        const session = known.get(batch.session)!;
        session.lastSeq -= batch.events.length;
        session.pending -= batch.events.length;
      }
      for (const append of queue) append.reject(error);
      return;
    }
    pending.push(...batches);
    for (const batch of batches) pendingEvents += batch.events.length;
    scheduleIngest();
    outcomes.forEach((outcome, i) => ('seq' in outcome ? queue[i]!.resolve(outcome.seq) : queue[i]!.reject(outcome.error)));
  };

  replayOrphans();

  const deleteSession = db.transaction((id: string): boolean => {
    sql.deleteEvents.run(id);
    return sql.deleteSession.run(id).changes > 0;
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
    tasks: createSqliteTasks(db, () => checkpointer.committed()),
    facts: createSqliteFacts(db, () => checkpointer.committed()),
    async openSession(id: string, syndicate: string): Promise<SessionRecord> {
      // Read first: a session is opened once per turn and almost always exists already, and a read
      // takes no write lock.
      const session = known.get(id);
      if (session !== undefined && Date.now() - session.verifiedAt < REVERIFY_AFTER_MS) {
        return { id, syndicate: session.syndicate, createdAt: session.createdAt, updatedAt: session.updatedAt, eventCount: session.lastSeq };
      }
      return currentSession(id) ?? createSession(id, syndicate);
    },
    async getSession(id: string): Promise<SessionRecord | undefined> {
      return currentSession(id);
    },
    async listSessions({ syndicate, limit = NO_LIMIT }: { syndicate?: string; limit?: number } = {}): Promise<SessionRecord[]> {
      ingestNow();
      return syndicate === undefined ? sql.listSessions.all(limit) : sql.listSessionsOf.all(syndicate, limit);
    },
    async deleteSession(id: string): Promise<boolean> {
      // Journaled batches of the session would otherwise re-create it when they are ingested.
      ingestNow();
      known.delete(id);
      return deleteSession(id);
    },
    async appendEvents(sessionId: string, events: readonly TurnEvent[]): Promise<number> {
      // Serialised up front: an event that cannot be stored fails its batch before anything is written.
      const payloads = events.map((event) => JSON.stringify(event));
      return new Promise((resolve, reject) => {
        if (queued.length === 0) queueMicrotask(writeAppends);
        queued.push({ sessionId, events, payloads, resolve, reject });
      });
    },
    async readEvents(sessionId: string, { afterSeq = 0, limit = NO_LIMIT }: ReadEventsOptions = {}): Promise<StoredEvent[]> {
      if ((known.get(sessionId)?.pending ?? 0) > 0) ingestNow();
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
    async close(): Promise<void> {
      if (!db.open) return;
      writeAppends();
      clearTimeout(ingestTimer);
      try {
        ingestNow();
        // Only now: if the ingest failed, the journal is what keeps the batches for the next open.
        journal.remove();
        sql.forgetJournal.run(journal.name);
      } finally {
        await checkpointer.stop();
        db.close();
      }
    },
  };
}
