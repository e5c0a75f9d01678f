import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Embedder } from '../src/memory/embeddings/embedder.js';
import { recallFacts } from '../src/memory/facts/recall.js';
import { openPostgresStore } from '../src/store/postgres/index.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import type { Store } from '../src/store/store.js';
import { startPostgresCluster } from '../test/store/postgresServer.js';
import { fakeEmbedder } from '../test/memory/fakeEmbedder.js';
import { bulkFact, bulkQuestion, seeded } from './memoryData.js';
import { report, summarize } from './stats.js';
import { benchCouncil, turn } from './turnOverhead.js';

// The PostgreSQL store (issue 12 §6) on a throwaway cluster with the server's default durability
// (fsync and synchronous_commit on): a persisted turn against SQLite and against no store in the
// same run, then recall latency at 100,000 facts in one silo among many. Needs PostgreSQL 15 and
// pgvector (scripts/install-postgres.sh). Filling 120,000 facts through insertFact (HNSW kept up
// to date) took 17 minutes on a loaded 2-core machine; BENCH_POSTGRES_RECALL=0 skips that stage.

const WARMUP_TURNS = 100;
const TURNS = 500;
const TURNS_PER_SESSION = 10;
const LARGE_SILO_FACTS = 100_000;
const NEIGHBOUR_SILOS = 20;
const NEIGHBOUR_FACTS = 1_000;
const QUERIES = 100;
const IN_FLIGHT = 16;
const SEED = 12;

async function persistedTurn(label: string, store: Store | undefined): Promise<number> {
  const compiled = benchCouncil();
  const input = 'Should our team adopt a four-day work week?';
  for (let i = 0; i < WARMUP_TURNS; i++) await turn(compiled, { input, store, stream: false, sessionId: `${label}-warm-${Math.floor(i / TURNS_PER_SESSION)}` });
  const samples: number[] = [];
  for (let i = 0; i < TURNS; i++) {
    const start = process.hrtime.bigint();
    await turn(compiled, { input, store, stream: false, sessionId: `${label}-${Math.floor(i / TURNS_PER_SESSION)}` });
    samples.push(Number(process.hrtime.bigint() - start) / 1_000);
  }
  const { median, p99 } = summarize(samples);
  report(`turn (${label})`, { turns: TURNS, median_us: median, p99_us: p99 });
  return median;
}

async function fill(store: Store, embedder: Embedder, silo: string, count: number, random: () => number): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      next++;
      const text = bulkFact(random);
      const [embedding] = await embedder.embed([text]);
      await store.facts.insertFact(silo, { text, tag: 'FACT', date: null, source: 'user', keys: [text.split(' ')[4]!], provenance: null, embedding: embedding!, embeddingModel: embedder.model });
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

async function hnswScans(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ scans: string }>(`SELECT coalesce(sum(idx_scan), 0) AS scans FROM pg_stat_user_indexes WHERE indexrelname LIKE 'facts_hnsw_%'`);
    return Number(rows[0]!.scans);
  } finally {
    await client.end();
  }
}

async function recallAtScale(url: string): Promise<void> {
  const store = await openPostgresStore(url, { poolSize: IN_FLIGHT });
  const base = fakeEmbedder(512, 'synthetic-bow-512');
  let spentMs = 0;
  const embedder: Embedder = {
    model: base.model,
    dimensions: base.dimensions,
    async embed(texts, signal) {
      const start = performance.now();
      try {
        return await base.embed(texts, signal);
      } finally {
        spentMs += performance.now() - start;
      }
    },
  };
  const random = seeded(SEED);
  const silo = 'bench-large--local';
  const fillStart = performance.now();
  for (let i = 0; i < NEIGHBOUR_SILOS; i++) await fill(store, embedder, `bench-neighbour-${i}--local`, NEIGHBOUR_FACTS, random);
  await fill(store, embedder, silo, LARGE_SILO_FACTS, random);
  const total = LARGE_SILO_FACTS + NEIGHBOUR_SILOS * NEIGHBOUR_FACTS;
  report('postgres fill', { facts: total, facts_per_s: total / ((performance.now() - fillStart) / 1_000), in_flight: IN_FLIGHT });

  const queries = Array.from({ length: QUERIES }, () => bulkQuestion(random));
  const queryVectors = await embedder.embed(queries);
  const scansBefore = await hnswScans(url);
  const recall: number[] = [];
  const vector: number[] = [];
  const text: number[] = [];
  for (const [i, query] of queries.entries()) {
    spentMs = 0;
    let start = performance.now();
    await recallFacts({ facts: store.facts, embedder, silo }, query);
    recall.push(performance.now() - start - spentMs);
    start = performance.now();
    await store.facts.searchVectors(silo, { embedding: queryVectors[i]!, embeddingModel: embedder.model, limit: 10 });
    vector.push(performance.now() - start);
    start = performance.now();
    await store.facts.searchText(silo, query, 10);
    text.push(performance.now() - start);
  }
  const [r, v, t] = [summarize(recall), summarize(vector), summarize(text)];
  report(`postgres recall at ${LARGE_SILO_FACTS} facts [${embedder.model}]`, {
    recall_p50_ms: r.median,
    recall_p99_ms: r.p99,
    vector_top10_p50_ms: v.median,
    text_top10_p50_ms: t.median,
    hnsw_scans: (await hnswScans(url)) - scansBefore,
  });
  await store.close();
}

export async function benchPostgres(): Promise<void> {
  const cluster = await startPostgresCluster({ durable: true });
  const dir = mkdtempSync(join(tmpdir(), 'syndicate-bench-pg-'));
  try {
    const sqlite = openSqliteStore(join(dir, 'bench.db'));
    const postgres = await openPostgresStore(await cluster.createDatabase());
    const none = await persistedTurn('not persisted', undefined);
    const onSqlite = await persistedTurn('persisted, sqlite', sqlite);
    const onPostgres = await persistedTurn('persisted, postgres', postgres);
    report('persisted turn ratios', { postgres_over_sqlite: onPostgres / onSqlite, sqlite_over_none: onSqlite / none });
    await Promise.all([sqlite.close(), postgres.close()]);
    if (process.env.BENCH_POSTGRES_RECALL !== '0') await recallAtScale(await cluster.createDatabase());
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await cluster.stop();
  }
}
