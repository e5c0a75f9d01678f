import type { ModelCallOutcome, TurnEvent, TurnStatus } from '../core/events.js';
import type { DocumentStorage } from './documents.js';
import type { FactStore } from './facts.js';
import type { SessionNotes } from '../core/notes.js';
import type { TaskRecords } from './tasks.js';
import type { BackgroundJobStore, DreamRunRecords } from './backgroundJobs.js';
import type { UserRecords } from './users.js';
import type { ScheduleStore } from './schedules.js';

// The storage boundary. Every method is async so a network database (PostgreSQL) can
// implement it unchanged; no SQL leaves store/. A conformance suite
// (test/store/conformance.ts) runs against every implementation.

export interface SessionRecord {
  id: string;
  syndicate: string;
  createdAt: number;
  updatedAt: number;
  /** Also the seq of the session's last event (seqs run 1, 2, 3… with no gaps). */
  eventCount: number;
}

/** How a turn ended: its turn-end's status, or `interrupted` for a cancelled turn the server's shutdown stopped. */
export type TurnOutcome = TurnStatus | 'interrupted';

/** A session's last turn that has ended: how, and when its turn-end was appended. */
export interface LastTurn {
  outcome: TurnOutcome;
  endedAt: number;
}

/**
 * A session as listSessions gives it (and, with its `id` option, one session): with its title
 * (store/sessionTitle.ts), null while it has none, and its last turn that has ended, null while none has.
 */
export interface ListedSession extends SessionRecord {
  title: string | null;
  lastTurn: LastTurn | null;
}

/** A listed session's row as both stores select it: its last turn as two columns, null when no turn has ended. */
export type ListedRow = SessionRecord & { title: string | null; lastOutcome: TurnOutcome | null; lastEndedAt: number | null };

export function listedSession({ lastOutcome, lastEndedAt, ...session }: ListedRow): ListedSession {
  return { ...session, lastTurn: lastOutcome === null ? null : { outcome: lastOutcome, endedAt: lastEndedAt! } };
}

export interface StoredEvent {
  /** 1, 2, 3… within a session, in the order events were appended; restarts if the session is deleted and recreated. */
  seq: number;
  sessionId: string;
  event: TurnEvent;
}

export interface ReadEventsOptions {
  /** Only events with seq greater than this. */
  afterSeq?: number;
  limit?: number;
}

/** One model call in the usage ledger. */
export interface UsageRow {
  /** When the call ended, in milliseconds since the epoch. */
  at: number;
  syndicate: string;
  /** null when the syndicate keeps no sessions (memory_system: internal-only). */
  sessionId: string | null;
  /** Subagents' calls carry the id of the turn that delegated to them. */
  turnId: string;
  agent: string;
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  cachedInputTokens: number;
  latencyMs: number;
  outcome: ModelCallOutcome;
  /** How the turn that made the call ended. */
  turnStatus: TurnStatus;
  /** The skills the turn activated (activate_skill), in order; absent when it activated none. */
  skills?: SkillUse[];
}

/** A skill as a turn used it: its name and the content hash of its files then. */
export interface SkillUse {
  name: string;
  hash: string;
}

/** Where a page of listSessions starts: right after this session (the last of the previous page). */
export interface SessionCursor {
  updatedAt: number;
  id: string;
}

export interface ListSessionsOptions {
  syndicate?: string;
  /** Only the session with this id: one session with its title and last turn, which getSession leaves out. */
  id?: string;
  /** Only sessions whose id starts with this (a server user's: `api:<user>:`); uses the id index. */
  idPrefix?: string;
  limit?: number;
  /** Keyset paging: the sessions that sort after this one (newest first, then by id). */
  after?: SessionCursor;
  /** Only sessions whose title or id contains this text, ignoring the case of ASCII letters (PostgreSQL folds others too). */
  query?: string;
}

/** The least string greater than every string that starts with `prefix` (a range scan's end). */
export function prefixEnd(prefix: string): string {
  if (prefix === '') throw new Error('prefixEnd needs a non-empty prefix');
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/** A LIKE pattern, escaped with a backslash, that matches any text containing `text`. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, '\\$&')}%`;
}

export interface AppendOptions {
  /**
   * Also clears the session's scratchpad notes (what notes.clear does): a turn's last batch, when
   * the session goes idle. PostgreSQL does both in the batch's statement, one round trip; SQLite
   * clears them, then appends. Either failing rejects the append.
   */
  clearNotes?: boolean;
  /**
   * Creates the session for this syndicate first if it does not exist (what openSession does), so a
   * turn can start without reading the session: PostgreSQL does it in the batch's statement.
   * Without it an append to a session that was never opened is refused.
   */
  openFor?: string;
}

export interface UsageQuery {
  /** Only calls at or after this time (milliseconds since the epoch). */
  since?: number;
  syndicate?: string;
}

export interface Store {
  /**
   * Creates the session if it does not exist; returns it either way. `isNew`: the caller minted the
   * id for this call (a random UUID), so no stored session has it and there is nothing to read.
   */
  openSession(id: string, syndicate: string, options?: { isNew?: boolean }): Promise<SessionRecord>;
  getSession(id: string): Promise<SessionRecord | undefined>;
  /** Most recently updated first (ties by id); see ListSessionsOptions for filters and paging. */
  listSessions(options?: ListSessionsOptions): Promise<ListedSession[]>;
  /** Returns false when there was no such session. */
  deleteSession(id: string): Promise<boolean>;
  /**
   * Retention: deletes every session last updated before `before` (milliseconds since the epoch),
   * with its events; returns how many. Ledger rows stay, as with deleteSession.
   */
  pruneSessions(before: number): Promise<number>;
  /**
   * Appends atomically: all of the batch is stored or none of it. O(batch), never O(session).
   * Resolves, once the batch is durable, to the seq of the batch's last event (an empty batch: the
   * session's last seq). Durable means it survives the process being killed (SIGKILL, a crash); an
   * OS crash or power loss (on PostgreSQL: a crash of the server or its machine) can drop the last
   * acknowledged batches unless the store was opened for that (durability `fsync`,
   * SYNDICATE_DURABILITY=fsync: SQLite syncs its file, PostgreSQL commits with synchronous_commit
   * on). Batches stay whole and in each writer's order, with gapless seqs, however many processes
   * append to the session.
   * The returned seq is final, whichever processes append to the session: PostgreSQL assigns it
   * in the statement that commits the batch; SQLite journals a batch only while its process
   * holds the session's claim (sqlite/sessionClaims.ts), so an append to a session another
   * process is appending to waits until that process's batches are in the database. Another
   * process's acknowledged events show in reads once they are in (SQLite: tens of ms).
   */
  appendEvents(sessionId: string, events: readonly TurnEvent[], options?: AppendOptions): Promise<number>;
  readEvents(sessionId: string, options?: ReadEventsOptions): Promise<StoredEvent[]>;
  /** Appends to the usage ledger atomically. Ledger rows outlive their session: deleting it leaves them. */
  recordUsage(rows: readonly UsageRow[]): Promise<void>;
  /** Ledger rows in time order (rows with the same time in the order they were recorded). */
  queryUsage(query?: UsageQuery): Promise<UsageRow[]>;
  /** Persistent A2A tasks. */
  readonly tasks: TaskRecords;
  /** Markdown document bundles: their index, links, revisions and (database-backed) content. */
  readonly documents: DocumentStorage;
  /** Long-term facts, scoped to one memory silo per call. */
  readonly facts: FactStore;
  /** The scratchpad: a session's working notes (store/notes.ts), cleared when it goes idle. */
  readonly notes: SessionNotes;
  /** Background subagent jobs (scheduler/jobs): their pieces' leases, and the report written exactly once. */
  readonly backgroundJobs: BackgroundJobStore;
  /** Dream runs (scheduler/dreams), per syndicate and silo. */
  readonly dreamRuns: DreamRunRecords;
  /** Scheduled tasks (scheduler/tasks) and their run records, each firing decided once. */
  readonly schedules: ScheduleStore;
  /** Users, their API keys and studio sign-ins (store/users.ts). */
  readonly users: UserRecords;
  close(): Promise<void>;
}
