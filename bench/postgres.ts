import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Durability } from '../src/store/sqlite/connection.js';
import { openPostgresStore } from '../src/store/postgres/index.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import type { Store } from '../src/store/store.js';
import { startPostgresCluster } from '../test/store/postgresServer.js';
import { serverCpuUs } from './postgresCpu.js';
import { benchTwoProcesses } from './postgresProcesses.js';
import { benchRecallAtScale } from './postgresRecall.js';
import { report, summarize } from './stats.js';
import { benchCouncil, turn } from './turnOverhead.js';

// The PostgreSQL store (issue 12 §6) on a throwaway cluster with the server's default settings
// (fsync on): a persisted turn on PostgreSQL against SQLite and against no store in the same run,
// at each store's default durability and at `fsync`; 200 concurrent turns on each; two processes
// against one; recall at 100,000 facts (postgresRecall.ts). Needs PostgreSQL 15 and pgvector
// (scripts/install-postgres.sh). BENCH_POSTGRES_RECALL=0 skips the recall stage (minutes);
// BENCH=postgresRecall runs it alone.

const WARMUP_TURNS = 100;
const TURNS = 500;
const TURNS_PER_SESSION = 10;
const CONCURRENT_TURNS = 200;
const ROUND_TRIPS = 2_000;
const INPUT = 'Should our team adopt a four-day work week?';

/** Median latency of a persisted turn, and the CPU this process (and with `serverUrl` the server) spent per turn. */
async function persistedTurn(label: string, store: Store | undefined, serverUrl?: string): Promise<{ median: number; cpuUs: number }> {
  const compiled = benchCouncil();
  for (let i = 0; i < WARMUP_TURNS; i++) await turn(compiled, { input: INPUT, store, stream: false, sessionId: `${label}-warm-${Math.floor(i / TURNS_PER_SESSION)}` });
  const samples: number[] = [];
  const serverBefore = serverUrl === undefined ? 0 : await serverCpuUs(serverUrl);
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < TURNS; i++) {
    const start = process.hrtime.bigint();
    await turn(compiled, { input: INPUT, store, stream: false, sessionId: `${label}-${Math.floor(i / TURNS_PER_SESSION)}` });
    samples.push(Number(process.hrtime.bigint() - start) / 1_000);
  }
  const cpu = process.cpuUsage(cpuBefore);
  const serverUs = serverUrl === undefined ? 0 : ((await serverCpuUs(serverUrl)) - serverBefore) / TURNS;
  const { median, p99 } = summarize(samples);
  const cpuUs = (cpu.user + cpu.system) / TURNS;
  report(`turn (${label})`, { turns: TURNS, median_us: median, p99_us: p99, cpu_us_per_turn: cpuUs, ...(serverUrl === undefined ? {} : { server_cpu_us_per_turn: serverUs }) });
  return { median, cpuUs: cpuUs + serverUs };
}

async function concurrentTurns(label: string, store: Store | undefined): Promise<void> {
  const compiled = benchCouncil();
  const start = performance.now();
  await Promise.all(Array.from({ length: CONCURRENT_TURNS }, (_, i) => turn(compiled, { input: INPUT, store, stream: false, sessionId: `${label}-conc-${i}` })));
  const wallMs = performance.now() - start;
  report(`${CONCURRENT_TURNS} concurrent turns (${label})`, { wall_ms: wallMs, turns_per_s: CONCURRENT_TURNS / (wallMs / 1_000) });
}

/** The floor under every statement (a persisted bench turn is 4 appends: the first opens the session, the last clears its notes): a prepared `SELECT 1`. */
async function roundTrip(url: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const samples: number[] = [];
  for (let i = 0; i < ROUND_TRIPS; i++) {
    const start = process.hrtime.bigint();
    await pool.query({ name: 'bench_round_trip', text: 'SELECT 1' });
    samples.push(Number(process.hrtime.bigint() - start) / 1_000);
  }
  await pool.end();
  report('postgres round trip', { median_us: summarize(samples).median });
}

export async function benchPostgres(): Promise<void> {
  // Page cache for the recall bench's working set: at 100k 512-dim facts the HNSW index is 156 MB
  // and the table 373 MB, so in PostgreSQL's default 128 MB each vector search re-read ~900 pages
  // from the OS cache (EXPLAIN BUFFERS). A server holding that many facts is sized to keep them.
  const cluster = await startPostgresCluster({ durable: true, sharedBuffers: '1GB' });
  const dir = mkdtempSync(join(tmpdir(), 'syndicate-bench-pg-'));
  try {
    const turnsUrl = await cluster.createDatabase();
    const stores = async (durability: Durability): Promise<{ sqlite: Store; postgres: Store }> => ({
      sqlite: openSqliteStore(join(dir, `bench-${durability}.db`), { durability }),
      postgres: await openPostgresStore(turnsUrl, { durability }),
    });
    const none = await persistedTurn('not persisted', undefined);
    for (const durability of ['write', 'fsync'] as const) {
      const { sqlite, postgres } = await stores(durability);
      const onSqlite = await persistedTurn(`sqlite, ${durability}`, sqlite);
      const onPostgres = await persistedTurn(`postgres, ${durability}`, postgres, turnsUrl);
      // The latency of a PostgreSQL turn includes waiting for the server's process to be scheduled
      // at each statement, which other work on the machine stretches; the CPU both spend does not.
      report(`persisted turn ratios, ${durability}`, {
        postgres_over_sqlite: onPostgres.median / onSqlite.median,
        sqlite_over_none: onSqlite.median / none.median,
        postgres_over_sqlite_cpu: onPostgres.cpuUs / onSqlite.cpuUs,
      });
      await Promise.all([sqlite.close(), postgres.close()]);
    }
    await roundTrip(turnsUrl);

    const { sqlite, postgres } = await stores('write');
    await concurrentTurns('not persisted', undefined);
    await concurrentTurns('sqlite', sqlite);
    await concurrentTurns('postgres', postgres);
    await Promise.all([sqlite.close(), postgres.close()]);

    await benchTwoProcesses(await cluster.createDatabase());
    if (process.env.BENCH_POSTGRES_RECALL !== '0') await benchRecallAtScale(await cluster.createDatabase());
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await cluster.stop();
  }
}
