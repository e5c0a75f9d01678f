import pg from 'pg';
import type { Db, PreparedSql } from './connection.js';

// Group commit of event appends. An append goes out alone, in its own statement, while fewer than
// `inFlight` append statements are running; the appends that arrive meanwhile wait, and the next
// free slot sends all of them (one batch per session) as one statement: one round trip, one
// transaction and one commit for the group, each caller resolved only once that commit is
// acknowledged. Under load that halves the server's CPU per append (bench/postgres.ts).
// A session is in at most one statement at a time, so its batches commit in the order they came.

export interface AppendBatch {
  sessionId: string;
  types: readonly string[];
  payloads: readonly string[];
  clearNotes: boolean;
  /** The session's title, taken if this batch holds its first events (sessionTitle.ts). */
  title: string | null;
  /** Creates the session for this syndicate when it does not exist (AppendOptions.openFor). */
  openFor: string | undefined;
}

/** The seq of the batch's last event, or undefined when its session does not exist (and it was not opened). */
export type AppendOne = (batch: AppendBatch, at: number) => Promise<number | undefined>;

// A group is bounded so its arrays stay a reasonable size for one statement.
const MAX_GROUP = 64;
// The server cancelled the statement (statement_timeout): sending its batches again, one by one,
// would only wait that long again for each.
const QUERY_CANCELED = '57014';

// The statement of a group, one batch per session. `batch` numbers the batches; an existing session
// is updated, one with a syndicate ($2) is upserted as OPEN_AND_APPEND does (store.ts), and each
// event goes under its batch's session, numbered on from the count the session's row now holds.
// A session whose row held no events takes its batch's title. Returns each stored batch's last
// seq; a batch whose session does not exist gets no row.
const APPEND_GROUP: PreparedSql = {
  name: 'syndicate_append_event_groups',
  text: `
  WITH batch AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::boolean[], $10::text[]) WITH ORDINALITY AS batch (id, syndicate, size, clear, title, number)
  ),
  opened AS (
    INSERT INTO sessions (id, syndicate, created_at, updated_at, event_count, title)
    SELECT id, syndicate, $8, $8, size, title FROM batch WHERE syndicate IS NOT NULL
    ON CONFLICT (id) DO UPDATE SET event_count = sessions.event_count + excluded.event_count, updated_at = greatest(sessions.updated_at, excluded.updated_at),
      title = CASE WHEN sessions.event_count = 0 THEN excluded.title ELSE sessions.title END
    RETURNING id, number, event_count
  ),
  updated AS (
    UPDATE sessions SET event_count = sessions.event_count + batch.size, updated_at = greatest(sessions.updated_at, $8),
      title = CASE WHEN sessions.event_count = 0 THEN batch.title ELSE sessions.title END
    FROM batch WHERE batch.syndicate IS NULL AND sessions.id = batch.id
    RETURNING sessions.id, sessions.number, sessions.event_count
  ),
  session AS (
    SELECT batch.number AS batch, batch.size, session.number, session.event_count
    FROM batch JOIN (SELECT * FROM opened UNION ALL SELECT * FROM updated) AS session ON session.id = batch.id
  ),
  notes AS (DELETE FROM session_notes WHERE session_id IN (SELECT id FROM batch WHERE clear)),
  inserted AS (
    INSERT INTO events (session_number, seq, appended_at, type, payload)
    SELECT session.number, session.event_count - session.size + event.ordinal, $8, event.type, event.payload
    FROM unnest($5::text[], $6::text[], $7::int[], $9::int[]) AS event (type, payload, batch, ordinal) JOIN session USING (batch)
  )
  SELECT batch, event_count AS "lastSeq" FROM session`,
};

interface Pending {
  batch: AppendBatch;
  resolve(lastSeq: number | undefined): void;
  reject(error: unknown): void;
}

function groupParams(batches: readonly AppendBatch[], at: number): unknown[] {
  const types: string[] = [];
  const payloads: string[] = [];
  const numbers: number[] = [];
  const ordinals: number[] = [];
  batches.forEach((batch, index) => {
    batch.types.forEach((type, ordinal) => {
      types.push(type);
      payloads.push(batch.payloads[ordinal]!);
      numbers.push(index + 1);
      ordinals.push(ordinal + 1);
    });
  });
  return [
    batches.map((batch) => batch.sessionId),
    batches.map((batch) => batch.openFor ?? null),
    batches.map((batch) => batch.types.length),
    batches.map((batch) => batch.clearNotes),
    types,
    payloads,
    numbers,
    at,
    ordinals,
    batches.map((batch) => batch.title),
  ];
}

/** An append function that groups concurrent appends; `appendOne` stores a batch that goes out alone. */
export function createAppendGroups(db: Db, appendOne: AppendOne, inFlight: number): (batch: AppendBatch) => Promise<number | undefined> {
  const waiting: Pending[] = [];
  const sessionsInFlight = new Set<string>();
  let running = 0;

  // The waiting appends, in order, whose session has no statement running and none taken yet.
  const takeGroup = (): Pending[] => {
    const group: Pending[] = [];
    const taken = new Set<string>();
    for (let i = 0; i < waiting.length && group.length < MAX_GROUP; i++) {
      const { sessionId } = waiting[i]!.batch;
      if (sessionsInFlight.has(sessionId) || taken.has(sessionId)) continue;
      taken.add(sessionId);
      group.push(...waiting.splice(i--, 1));
    }
    // In one order in every process, so that two processes' groups lock the sessions they share in
    // the same order rather than deadlock (which the server would break, failing one group: then
    // its batches go again one by one, below).
    return group.sort((a, b) => (a.batch.sessionId < b.batch.sessionId ? -1 : a.batch.sessionId > b.batch.sessionId ? 1 : 0));
  };

  const runAlone = async ({ batch, resolve, reject }: Pending, at: number): Promise<void> => {
    await appendOne(batch, at).then(resolve, reject);
  };

  const runGroup = async (group: Pending[]): Promise<void> => {
    const at = Date.now();
    if (group.length === 1) return runAlone(group[0]!, at);
    let rows: Array<{ batch: number; lastSeq: number }>;
    try {
      rows = (await db.write<{ batch: number; lastSeq: number }>(APPEND_GROUP, groupParams(group.map(({ batch }) => batch), at))).rows;
    } catch (error) {
      // The statement failed whole, so nothing of the group is stored: each batch goes again on its
      // own, so that one batch the server refuses does not fail the others. A connection that failed
      // leaves the outcome unknown (db.write says so), and a cancelled statement would only time out
      // again: those fail every caller.
      if (error instanceof pg.DatabaseError && error.code !== QUERY_CANCELED) {
        await Promise.all(group.map((pending) => runAlone(pending, at)));
        return;
      }
      for (const { reject } of group) reject(error);
      return;
    }
    const lastSeqs = new Map(rows.map((row) => [row.batch, row.lastSeq]));
    group.forEach(({ resolve }, index) => resolve(lastSeqs.get(index + 1)));
  };

  const pump = (): void => {
    while (running < inFlight) {
      const group = takeGroup();
      if (group.length === 0) return;
      running++;
      for (const { batch } of group) sessionsInFlight.add(batch.sessionId);
      void runGroup(group).finally(() => {
        running--;
        for (const { batch } of group) sessionsInFlight.delete(batch.sessionId);
        pump();
      });
    }
  };

  return (batch) =>
    new Promise<number | undefined>((resolve, reject) => {
      waiting.push({ batch, resolve, reject });
      pump();
    });
}
