import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Embedder } from '../src/memory/embeddings/embedder.js';
import { recallFacts } from '../src/memory/facts/recall.js';
import { createHnswIndexSql, SEARCH_VECTOR } from '../src/store/postgres/facts.js';
import { migrate, openPostgresStore } from '../src/store/postgres/index.js';
import type { Store } from '../src/store/store.js';
import { vectorLiteral } from '../src/store/postgres/vectors.js';
import { fakeEmbedder } from '../test/memory/fakeEmbedder.js';
import { bulkFact, bulkQuestion, seeded } from './memoryData.js';
import { startPostgresCluster } from '../test/store/postgresServer.js';
import { serverCpuUs } from './postgresCpu.js';
import { report, summarize } from './stats.js';

// Recall latency at 100,000 facts in one silo among many, on PostgreSQL (issue 12 §6). The facts
// are loaded in bulk (multi-row INSERTs, then the HNSW index built once, then ANALYZE, as a restore
// would): through insertFact, which keeps the index up to date fact by fact, the load took 17
// minutes. Recall is measured through the store's own methods; the query's embedding is excluded.

const LARGE_SILO_FACTS = 100_000;
const NEIGHBOUR_SILOS = 20;
const NEIGHBOUR_FACTS = 1_000;
const BATCH = 2_000;
const QUERIES = 100;
const SEED = 12;
const DIMENSIONS = 512;
const MODEL = 'synthetic-bow-512';
// pgvector's distance sums in single precision, the store's score in double: scores within this are equal.
const SIMILARITY_EPSILON = 1e-6;
export const LARGE_SILO = 'bench-large--local';

async function loadSilo(client: pg.Client, embedder: Embedder, silo: string, count: number, random: () => number): Promise<void> {
  await client.query('INSERT INTO fact_silos (silo, embedding_model, dimensions) VALUES ($1, $2, $3)', [silo, embedder.model, embedder.dimensions]);
  for (let done = 0; done < count; done += BATCH) {
    const texts = Array.from({ length: Math.min(BATCH, count - done) }, () => bulkFact(random));
    const vectors = await embedder.embed(texts);
    await client.query(
      `INSERT INTO facts (id, silo, text, tag, date, source, keys, status, embedding_model, created_at, updated_at, dimensions, embedding, search)
       SELECT v.id, $1, v.text, 'FACT', NULL, 'user', ARRAY[v.key], 'active', $2, $3, $3, $4, v.embedding::vector, ${SEARCH_VECTOR('v.key', 'v.text')}
       FROM unnest($5::text[], $6::text[], $7::text[], $8::text[]) AS v (id, text, key, embedding)`,
      [
        silo, embedder.model, Date.now(), embedder.dimensions, texts.map(() => randomUUID()), texts,
        texts.map((text) => text.split(' ')[4]!.toLowerCase()), vectors.map(vectorLiteral),
      ],
    );
  }
}

/** Loads the neighbour silos and the large one, then builds the index and the statistics. */
export async function loadFacts(url: string, random: () => number): Promise<void> {
  await migrate(url);
  const embedder = fakeEmbedder(DIMENSIONS, MODEL);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (let i = 0; i < NEIGHBOUR_SILOS; i++) await loadSilo(client, embedder, `bench-neighbour-${i}--local`, NEIGHBOUR_FACTS, random);
    await loadSilo(client, embedder, LARGE_SILO, LARGE_SILO_FACTS, random);
    await client.query(`SET maintenance_work_mem = '1GB'`);
    await client.query(createHnswIndexSql(DIMENSIONS));
    await client.query('ANALYZE facts');
  } finally {
    await client.end();
  }
}

interface HnswUse {
  scans: number;
  /** Index pages the searches touched, and of those, how many were not in shared_buffers. */
  blocks: number;
  blocksRead: number;
}

// Pages touched do not depend on the machine's load, unlike the times: they count the work a
// change of the search or the index saves.
async function hnswUse(url: string): Promise<HnswUse> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ scans: string; hit: string; read: string }>(
      `SELECT coalesce(sum(u.idx_scan), 0) AS scans, coalesce(sum(io.idx_blks_hit), 0) AS hit, coalesce(sum(io.idx_blks_read), 0) AS read
       FROM pg_stat_user_indexes AS u JOIN pg_statio_user_indexes AS io USING (indexrelid) WHERE u.indexrelname LIKE 'facts_hnsw_%'`,
    );
    const read = Number(rows[0]!.read);
    return { scans: Number(rows[0]!.scans), blocks: Number(rows[0]!.hit) + read, blocksRead: read };
  } finally {
    await client.end();
  }
}

/**
 * How much of the true nearest 10 the store's vector search finds, against an exact scan of the
 * silo (the index's expression is not what it orders by, so the planner cannot use it): a hit
 * counts when it is as near as the true 10th, so facts tied with it count as found. Also how often
 * the nearest fact is the first hit.
 */
async function vectorQuality(url: string, store: Store, queryVectors: readonly Float32Array[]): Promise<{ top10Found: number; nearestFound: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let found = 0;
  let nearest = 0;
  try {
    for (const vector of queryVectors) {
      const { rows } = await client.query<{ similarity: number }>(
        `SELECT 1 - (embedding::vector(${DIMENSIONS}) <=> $2::vector(${DIMENSIONS})) AS similarity FROM facts
         WHERE silo = $1 AND dimensions = ${DIMENSIONS} ORDER BY similarity DESC LIMIT 10`,
        [LARGE_SILO, vectorLiteral(vector)],
      );
      const hits = await store.facts.searchVectors(LARGE_SILO, { embedding: vector, embeddingModel: MODEL, limit: 10 });
      const tenth = rows[rows.length - 1]!.similarity - SIMILARITY_EPSILON;
      found += hits.filter(({ score }) => score >= tenth).length / rows.length;
      if ((hits[0]?.score ?? -1) >= rows[0]!.similarity - SIMILARITY_EPSILON) nearest++;
    }
  } finally {
    await client.end();
  }
  return { top10Found: found / queryVectors.length, nearestFound: nearest / queryVectors.length };
}

export async function benchRecallAtScale(url: string): Promise<void> {
  const random = seeded(SEED);
  const loadStart = performance.now();
  await loadFacts(url, random);
  const total = LARGE_SILO_FACTS + NEIGHBOUR_SILOS * NEIGHBOUR_FACTS;
  report('postgres bulk load', { facts: total, seconds: (performance.now() - loadStart) / 1_000 });

  const store = await openPostgresStore(url);
  const base = fakeEmbedder(DIMENSIONS, MODEL);
  let embeddingMs = 0;
  const embedder: Embedder = {
    model: base.model,
    dimensions: base.dimensions,
    async embed(texts, signal) {
      const start = performance.now();
      try {
        return await base.embed(texts, signal);
      } finally {
        embeddingMs += performance.now() - start;
      }
    },
  };
  const queries = Array.from({ length: QUERIES }, () => bulkQuestion(random));
  const queryVectors = await base.embed(queries);
  // One pass to warm the caches (and the word statistics), as a running server would have them.
  for (const query of queries) await recallFacts({ facts: store.facts, embedder, silo: LARGE_SILO }, query);
  const hnswBefore = await hnswUse(url);
  const serverBefore = await serverCpuUs(url);
  const recall: number[] = [];
  const vector: number[] = [];
  const text: number[] = [];
  for (const [i, query] of queries.entries()) {
    embeddingMs = 0;
    let start = performance.now();
    await recallFacts({ facts: store.facts, embedder, silo: LARGE_SILO }, query);
    recall.push(performance.now() - start - embeddingMs);
    start = performance.now();
    await store.facts.searchVectors(LARGE_SILO, { embedding: queryVectors[i]!, embeddingModel: MODEL, limit: 10 });
    vector.push(performance.now() - start);
    start = performance.now();
    await store.facts.searchText(LARGE_SILO, query, 10);
    text.push(performance.now() - start);
  }
  // Over the whole loop: each query's recall, vector search and text search.
  const serverMsPerQuery = ((await serverCpuUs(url)) - serverBefore) / 1_000 / QUERIES;
  const hnswAfter = await hnswUse(url);
  const searches = hnswAfter.scans - hnswBefore.scans;
  const [r, v, t] = [summarize(recall), summarize(vector), summarize(text)];
  report(`postgres recall at ${LARGE_SILO_FACTS} facts [${MODEL}]`, {
    recall_p50_ms: r.median,
    recall_p99_ms: r.p99,
    vector_top10_p50_ms: v.median,
    text_top10_p50_ms: t.median,
    hnsw_scans: searches,
    hnsw_blocks_per_scan: (hnswAfter.blocks - hnswBefore.blocks) / searches,
    hnsw_blocks_read_per_scan: (hnswAfter.blocksRead - hnswBefore.blocksRead) / searches,
    server_cpu_ms_per_query: serverMsPerQuery,
  });
  // The exact scans take about a second each: after the timed loop, so they do not disturb it.
  const { top10Found, nearestFound } = await vectorQuality(url, store, queryVectors);
  report(`postgres vector search quality at ${LARGE_SILO_FACTS} facts, against an exact scan`, { top10_found: top10Found, nearest_found: nearestFound, queries: QUERIES });
  await store.close();
}

/** BENCH=postgresRecall: the recall stage alone, on a cluster of its own sized as the full PostgreSQL bench's. */
export async function benchPostgresRecall(): Promise<void> {
  const cluster = await startPostgresCluster({ durable: true, sharedBuffers: '1GB' });
  try {
    await benchRecallAtScale(await cluster.createDatabase());
  } finally {
    await cluster.stop();
  }
}
