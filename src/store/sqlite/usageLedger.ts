import type Database from 'better-sqlite3';
import type { UsageQuery, UsageRow } from '../store.js';
import { skillsColumn, usageRowOf, type StoredUsageRow } from '../usageSkills.js';
import type { WriteJob } from './writeWorker.js';

// The usage ledger in the SQLite file: one row per model call.

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

interface QueuedUsage {
  rows: readonly UsageRow[];
  resolve(): void;
  reject(error: unknown): void;
}

const SELECT_USAGE = `
  SELECT at, syndicate, session_id AS sessionId, turn_id AS turnId, agent, provider, model,
         input_tokens AS inputTokens, output_tokens AS outputTokens, reasoning_tokens AS reasoningTokens,
         cached_input_tokens AS cachedInputTokens, latency_ms AS latencyMs, outcome, turn_status AS turnStatus, skills
  FROM usage_ledger`;

export interface SqliteUsageLedger {
  recordUsage(rows: readonly UsageRow[]): Promise<void>;
  queryUsage(query?: UsageQuery): Promise<UsageRow[]>;
  /** Writes the rows still queued now, and settles once every write this ledger started has (close()). */
  writeQueued(): Promise<void>;
}

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

/** `run` commits a write job (the journal ingest's, on the write thread once it is up); `committed` is told of every commit (the checkpointer counts them). */
export function createSqliteUsageLedger(db: Database.Database, run: (job: WriteJob) => Promise<unknown>, committed: () => void): SqliteUsageLedger {
  const selectUsage = db.prepare<[since: number], StoredUsageRow>(`${SELECT_USAGE} WHERE at >= ? ORDER BY at, id`);
  const selectUsageOf = db.prepare<[since: number, syndicate: string], StoredUsageRow>(`${SELECT_USAGE} WHERE at >= ? AND syndicate = ? ORDER BY at, id`);

  // Ledger rows recorded within USAGE_BATCH_MS share a commit, on the write thread: a server opens
  // a ledger per turn, so each turn's rows would otherwise commit alone, and a commit on this
  // thread cost its event loop 50-80 us, or milliseconds of sleep whenever the write thread held
  // the write lock (server bench: 2-4% of these commits took over 1 ms, 12-13 ms at the p99). A
  // caller still hears back only once its rows are committed.
  let queuedUsage: QueuedUsage[] = [];
  let usageWrites: Promise<void> = Promise.resolve();
  const commitUsage = async (queue: readonly QueuedUsage[]): Promise<void> => {
    try {
      await run(usageJob(queue.flatMap(({ rows }) => rows)));
    } catch {
      // Each caller hears of its own rows: one refused row must not fail the other turns'.
      await Promise.all(queue.map(({ rows, resolve, reject }) => run(usageJob(rows)).then(() => resolve(), reject)));
      committed();
      return;
    }
    committed();
    for (const { resolve } of queue) resolve();
  };
  const writeUsage = (): void => {
    const queue = queuedUsage;
    queuedUsage = [];
    // Already written by close().
    if (queue.length === 0) return;
    usageWrites = usageWrites.then(() => commitUsage(queue));
  };

  return {
    recordUsage(rows) {
      if (rows.length === 0) return Promise.resolve();
      return new Promise((resolve, reject) => {
        if (queuedUsage.length === 0) setTimeout(writeUsage, USAGE_BATCH_MS);
        queuedUsage.push({ rows, resolve, reject });
      });
    },
    async queryUsage({ since = Number.MIN_SAFE_INTEGER, syndicate }: UsageQuery = {}) {
      return (syndicate === undefined ? selectUsage.all(since) : selectUsageOf.all(since, syndicate)).map(usageRowOf);
    },
    writeQueued() {
      writeUsage();
      return usageWrites;
    },
  };
}
