import type Database from 'better-sqlite3';
import type { UsageQuery, UsageRow } from '../store.js';
import { skillsColumn, usageRowOf, type StoredUsageRow } from '../usageSkills.js';

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
  /** Writes the rows still queued now (close()). */
  writeQueued(): void;
}

/** `committed` is told of every commit (the checkpointer counts them). */
export function createSqliteUsageLedger(db: Database.Database, committed: () => void): SqliteUsageLedger {
  const insertUsage = db.prepare<UsageParams>(
    `INSERT INTO usage_ledger (at, syndicate, session_id, turn_id, agent, provider, model, input_tokens, output_tokens,
       reasoning_tokens, cached_input_tokens, latency_ms, outcome, turn_status, skills)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const selectUsage = db.prepare<[since: number], StoredUsageRow>(`${SELECT_USAGE} WHERE at >= ? ORDER BY at, id`);
  const selectUsageOf = db.prepare<[since: number, syndicate: string], StoredUsageRow>(`${SELECT_USAGE} WHERE at >= ? AND syndicate = ? ORDER BY at, id`);

  const recordUsage = db.transaction((rows: readonly UsageRow[]): void => {
    for (const r of rows) {
      insertUsage.run(
        r.at, r.syndicate, r.sessionId, r.turnId, r.agent, r.provider, r.model,
        r.inputTokens, r.outputTokens, r.reasoningTokens, r.cachedInputTokens, r.latencyMs, r.outcome, r.turnStatus, skillsColumn(r.skills),
      );
    }
  });

  // Ledger rows of the turns that end in one turn of the event loop share a commit: a server opens
  // a ledger per turn, so each turn's rows would otherwise commit alone, a write lock and a WAL
  // write per turn. A caller still hears back only once its rows are committed.
  let queuedUsage: QueuedUsage[] = [];
  const writeUsage = (): void => {
    const queue = queuedUsage;
    queuedUsage = [];
    // Already written by close().
    if (queue.length === 0) return;
    try {
      recordUsage.immediate(queue.flatMap(({ rows }) => rows));
    } catch {
      // Each caller hears of its own rows: one refused row must not fail the other turns'.
      for (const { rows, resolve, reject } of queue) {
        try {
          recordUsage.immediate(rows);
          resolve();
        } catch (error) {
          reject(error);
        }
      }
      committed();
      return;
    }
    committed();
    for (const { resolve } of queue) resolve();
  };

  return {
    recordUsage(rows) {
      if (rows.length === 0) return Promise.resolve();
      return new Promise((resolve, reject) => {
        if (queuedUsage.length === 0) setImmediate(writeUsage);
        queuedUsage.push({ rows, resolve, reject });
      });
    },
    async queryUsage({ since = Number.MIN_SAFE_INTEGER, syndicate }: UsageQuery = {}) {
      return (syndicate === undefined ? selectUsage.all(since) : selectUsageOf.all(since, syndicate)).map(usageRowOf);
    },
    writeQueued: writeUsage,
  };
}
