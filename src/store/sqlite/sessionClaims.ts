import { setTimeout as sleep } from 'node:timers/promises';
import type Database from 'better-sqlite3';
import { hasJournals } from './orphanJournals.js';
import { tryLockWriter } from './writerLock.js';

// A seq an append returns must be final, but a journaled batch gets its seq in the database only
// when it is ingested: if another process appended to the session in between, the batch would
// move. So a process journals appends to a session only while it holds the session's claim, a
// row taken in the database (with the session's last seq, read in the same transaction) when it
// first appends to the session, and given up once its batches are ingested (at the commit that
// leaves none journaled). Another process's append waits for the claim meanwhile: it marks the
// claim wanted, and the holder, told at its next ingest, journals no more and hands it over once
// its batches are in. A claim whose holder died (its writer lock is free) is taken over once the
// dead writer's journals are replayed.

export const SESSION_CLAIMS_MIGRATION = `
  -- The journal writer (writerLock.ts) that may append to a session now, and one waiting for it.
  CREATE TABLE session_claims (
    session   TEXT PRIMARY KEY,
    writer    TEXT NOT NULL,
    wanted_by TEXT
  ) WITHOUT ROWID;
  CREATE INDEX session_claims_wanted ON session_claims (writer) WHERE wanted_by IS NOT NULL;
`;

/** The claims a holder is asked to hand over, read by each ingest job (see ingestJob.ts). */
export const SELECT_WANTED_CLAIMS = `SELECT json_group_array(session) AS wanted FROM session_claims WHERE writer = @writer AND wanted_by IS NOT NULL`;

const CLAIM_POLL_MS = 5;
export const CLAIM_WAIT_MS = 30_000;

export interface SessionClaimsOptions {
  db: Database.Database;
  /** The journal directory, where writers' locks and journals are. */
  dir: string;
  /** This store's writer id. */
  writer: string;
  /** Replays the journals of dead writers (see journalIngest.ts). */
  replayOrphans(): void;
  /** A session no other process can know of yet (this one minted its id): its last seq is 0, unread. */
  unshared(sessionId: string): boolean;
  /** This writer has just taken the claim; `lastSeq` is the session's last seq in the database. False: no such session was opened. */
  taken(sessionId: string, lastSeq: number): boolean;
}

export interface SessionClaims {
  /**
   * Waits until this writer holds the session's claim (or the session turns out never opened,
   * which the append is then refused for), and marks an append on its way to the journal: the
   * claim is not released until end(). Rejects with `stopped()`'s error if it gives one meanwhile.
   */
  enter(sessionId: string, stopped: () => Error | undefined): Promise<void>;
  end(sessionId: string): void;
  /** After an ingest commit: releases what has nothing journaled, and stops journaling what another writer wants. */
  committed(wanted: readonly string[], journaledEvents: (sessionId: string) => number): void;
  /** Releases every claim (at close, once every batch is in). */
  releaseAll(): void;
}

type TryOutcome = { lastSeq: number } | { holder: string };

interface QueuedTry {
  session: string;
  resolve(outcome: TryOutcome): void;
  reject(error: unknown): void;
}

interface ClaimRow {
  writer: string;
  wantedBy: string | null;
}

export function createSessionClaims({ db, dir, writer, replayOrphans, unshared, taken }: SessionClaimsOptions): SessionClaims {
  const selectClaim = db.prepare<[session: string], ClaimRow>('SELECT writer, wanted_by AS wantedBy FROM session_claims WHERE session = ?');
  const upsertClaim = db.prepare<[session: string, writer: string]>(
    'INSERT INTO session_claims (session, writer) VALUES (?, ?) ON CONFLICT (session) DO UPDATE SET writer = excluded.writer',
  );
  const markWanted = db.prepare<[writer: string, session: string]>('UPDATE session_claims SET wanted_by = ? WHERE session = ? AND wanted_by IS NULL');
  const selectLastSeq = db.prepare<[session: string], { seq: number }>(
    'SELECT coalesce((SELECT seq FROM events WHERE session_number = (SELECT number FROM sessions WHERE id = ?) ORDER BY seq DESC LIMIT 1), 0) AS seq',
  );
  const handOver = db.prepare<[session: string, writer: string]>(
    'UPDATE session_claims SET writer = wanted_by, wanted_by = NULL WHERE session = ? AND writer = ? AND wanted_by IS NOT NULL',
  );
  const free = db.prepare<[session: string, writer: string]>('DELETE FROM session_claims WHERE session = ? AND writer = ?');
  const handOverAll = db.prepare<[writer: string]>('UPDATE session_claims SET writer = wanted_by, wanted_by = NULL WHERE writer = ? AND wanted_by IS NOT NULL');
  const freeAll = db.prepare<[writer: string]>('DELETE FROM session_claims WHERE writer = ?');

  const held = new Set<string>();
  // Held claims another writer wants: no more appends are journaled; released once all are in.
  const handingOver = new Map<string, { done: Promise<void>; resolve: () => void }>();
  const inProgress = new Map<string, number>();
  const acquiring = new Map<string, Promise<boolean>>();

  /** Takes the claim if it is free or this writer's, with the session's last seq; else marks it wanted and names its holder. */
  const tryTakeOne = (session: string): TryOutcome => {
    const row = selectClaim.get(session);
    if (row === undefined || row.writer === writer) {
      upsertClaim.run(session, writer);
      return { lastSeq: unshared(session) ? 0 : selectLastSeq.get(session)!.seq };
    }
    if (row.wantedBy === null) markWanted.run(writer, session);
    return { holder: row.writer };
  };
  const tryTakeAll = db.transaction((sessions: readonly string[]): TryOutcome[] => sessions.map(tryTakeOne));

  // A claim costs a commit of its own, the largest share of a new session's first append. A lone
  // try runs at the end of its microtask drain; once another has run in this turn of the event
  // loop (concurrent requests, each starting a session), the rest wait for the loop's check phase
  // and share one transaction: measured at 5 tries per loop turn with 16 clients, 13 with 64.
  let queuedTries: QueuedTry[] = [];
  let triedThisLoopTurn = false;
  const runQueuedTries = (): void => {
    const queue = queuedTries;
    queuedTries = [];
    let outcomes: TryOutcome[];
    try {
      outcomes = tryTakeAll.immediate(queue.map(({ session }) => session));
    } catch (error) {
      for (const { reject } of queue) reject(error);
      return;
    }
    queue.forEach(({ resolve }, i) => resolve(outcomes[i]!));
  };
  const tryTake = (session: string): Promise<TryOutcome> =>
    new Promise((resolve, reject) => {
      if (queuedTries.length === 0) {
        if (triedThisLoopTurn) setImmediate(runQueuedTries);
        else {
          triedThisLoopTurn = true;
          setImmediate(() => (triedThisLoopTurn = false));
          queueMicrotask(runQueuedTries);
        }
      }
      queuedTries.push({ session, resolve, reject });
    });

  /** Frees the claims of `holder` if it died; false while it lives (it holds its writer lock). */
  const tookOverDead = (holder: string): boolean => {
    const lock = tryLockWriter(dir, holder);
    if (lock === undefined) return false;
    if (hasJournals(dir, holder)) {
      // Its journals may hold the session's last batches: replayed first, then its claims go.
      lock.release();
      replayOrphans();
      return true;
    }
    freeAll.run(holder);
    lock.release({ forget: true });
    return true;
  };

  const take = async (session: string): Promise<boolean> => {
    const deadline = Date.now() + CLAIM_WAIT_MS;
    for (;;) {
      const outcome = await tryTake(session);
      if ('lastSeq' in outcome) {
        if (taken(session, outcome.lastSeq)) {
          held.add(session);
          return true;
        }
        release.immediate([session]);
        return false;
      }
      const { holder } = outcome;
      if (tookOverDead(holder)) continue;
      if (Date.now() >= deadline) {
        throw new Error(
          `cannot append to session '${session}': another process (journal writer ${holder}) has held it for ${CLAIM_WAIT_MS / 1000} s without handing it over; ` +
            'it may be stalled: try again, or stop that process',
        );
      }
      await sleep(CLAIM_POLL_MS);
    }
  };

  const release = db.transaction((sessions: readonly string[]): void => {
    for (const session of sessions) {
      handOver.run(session, writer);
      free.run(session, writer);
    }
  });

  /** Whether appends to the session may be journaled now. */
  const holds = (session: string): boolean => held.has(session) && !handingOver.has(session);

  /** Resolves once holds() was true (check it again: a commit since may have released it), or to false for a session never opened. */
  const acquire = (session: string): Promise<boolean> => {
    const running = acquiring.get(session);
    if (running !== undefined) return running;
    const acquired = (async () => {
      // This writer's own handover finishes first; then it waits its turn like any other.
      await handingOver.get(session)?.done;
      return held.has(session) || take(session);
    })().finally(() => acquiring.delete(session));
    acquiring.set(session, acquired);
    return acquired;
  };

  return {
    async enter(session, stopped) {
      while (!holds(session)) {
        const opened = await acquire(session);
        const error = stopped();
        if (error !== undefined) throw error;
        if (!opened) break;
      }
      inProgress.set(session, (inProgress.get(session) ?? 0) + 1);
    },
    end(session) {
      const count = inProgress.get(session)! - 1;
      if (count === 0) inProgress.delete(session);
      else inProgress.set(session, count);
    },
    committed(wanted, journaledEvents) {
      for (const session of wanted) {
        if (!held.has(session) || handingOver.has(session)) continue;
        let resolve!: () => void;
        const done = new Promise<void>((settle) => (resolve = settle));
        handingOver.set(session, { done, resolve });
      }
      const idle = [...held].filter((session) => journaledEvents(session) === 0 && !inProgress.has(session));
      if (idle.length === 0) return;
      release.immediate(idle);
      for (const session of idle) {
        held.delete(session);
        handingOver.get(session)?.resolve();
        handingOver.delete(session);
      }
    },
    releaseAll() {
      db.transaction(() => {
        handOverAll.run(writer);
        freeAll.run(writer);
      }).immediate();
      held.clear();
      for (const { resolve } of handingOver.values()) resolve();
      handingOver.clear();
    },
  };
}
