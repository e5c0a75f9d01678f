import { randomUUID } from 'node:crypto';
import { assertSilo } from '../../core/silo.js';
import {
  factRecordOf,
  type FactRow as StoredFactRow,
  checkSiloVectors,
  type FactRecord,
  type FactStore,
  incompleteReembedding,
  type ListFactsOptions,
  type NewFact,
  rankingWords,
  type ScoredFact,
  type SiloSummary,
  type SiloVectors,
  textQueries,
  type VectorQuery,
} from '../facts.js';
import { HNSW_EF_SEARCH, type Db } from './connection.js';
import { HNSW_INDEX_PREFIX, halfvecOf } from './factsSchema.js';
import { cosine } from '../vectors.js';
import { parseVector, vectorLiteral } from './vectors.js';
import { createWordCounts } from './wordCounts.js';

// Facts on PostgreSQL: one row per fact with its pgvector embedding and its tsvector, every
// statement filtered by silo. A vector search takes the nearest candidates by HNSW (a half-precision
// index per dimension, see factsSchema.ts; the planner scans a small silo instead), re-ranks them by
// exact cosine distance on the full vectors, and scores the few it returns in double precision, as the SQLite store does.

type FactRow = StoredFactRow<string[]>;

/** A statement on the pool or on one transaction's client. */
type Run = (sql: string, params: readonly unknown[]) => Promise<{ rows: FactRow[] }>;

const COLUMNS = `number, id, silo, text, tag, date, source, keys, status, superseded_by AS "supersededBy", restates, subject, attribute, session_id AS "sessionId",
  turn_id AS "turnId", embedding_model AS "embeddingModel", created_at AS "createdAt", updated_at AS "updatedAt"`;

// pgvector's vector type holds up to 16,000 dimensions; its HNSW index up to 2,000. Wider vectors
// are searched by an exact scan of the silo.
const MAX_DIMENSIONS = 16_000;
const HNSW_MAX_DIMENSIONS = 2_000;
// How many HNSW candidates a search re-ranks exactly: the limit, and at least HNSW_EF_SEARCH (what
// one round of the index's search yields; a larger LIMIT sends the iterative scan on to another
// round, each as dear as the first). The re-rank puts back in exact order what half precision and
// relaxed_order return slightly out of it. Measured at 100k 512-dim synthetic facts in one silo of
// 21 (bench/postgresRecall.ts) against an exact scan: ef_search 100 with 100 candidates found
// 98.5% of the true top 10 (ties counted) at ~8 ms of server CPU per search; 40 with 40 found
// 97.1% at ~4 ms, and the nearest fact for 96 queries of 100 (98 at 100).
const MIN_CANDIDATES = HNSW_EF_SEARCH;
// pg_advisory_xact_lock key that serialises creating a dimension's index across processes.
const INDEX_LOCK = 7_311_020_416;

/** The tsvector of a fact from SQL expressions of its keys (space-separated) and text: keys weigh twice the text (weights C = 0.2 and D = 0.1). */
export const SEARCH_VECTOR = (keys: string, text: string): string => `setweight(to_tsvector('simple', ${keys}), 'C') || setweight(to_tsvector('simple', ${text}), 'D')`;

function recordOf(row: FactRow): FactRecord {
  return factRecordOf(row, row.keys);
}

function checkDimensions(dimensions: number): void {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > MAX_DIMENSIONS) {
    throw new Error(`cannot store a ${dimensions}-dimensional vector: embeddings must have 1 to ${MAX_DIMENSIONS} dimensions`);
  }
}

function hnswIndexName(dimensions: number): string {
  return `${HNSW_INDEX_PREFIX}${dimensions}`;
}

/**
 * The HNSW index over the facts of one dimension (what a bulk load builds after loading, too), and
 * the expression a search orders by to use it: see HALFVEC_INDEX_MIGRATION for why half precision.
 */
export function createHnswIndexSql(dimensions: number): string {
  return `CREATE INDEX IF NOT EXISTS ${hnswIndexName(dimensions)} ON facts USING hnsw ((${halfvecOf('embedding', dimensions)}) halfvec_cosine_ops) WHERE dimensions = ${dimensions}`;
}

/** What candidates are ordered by: the HNSW index's half-precision distance where there is one, else the exact distance. */
function candidateOrder(dimensions: number): string {
  if (dimensions > HNSW_MAX_DIMENSIONS) return `embedding::vector(${dimensions}) <=> $2::vector(${dimensions})`;
  return `${halfvecOf('embedding', dimensions)} <=> ${halfvecOf('$2', dimensions)}`;
}

/**
 * The nearest candidates by the dimension's HNSW index, re-ranked by exact distance; their vectors
 * come along for scoring. Only facts of the query's model ($4): a silo of another model, or of
 * another dimension, yields no rows (searchVectors then says why).
 */
function vectorSearchSql(dimensions: number, query: VectorQuery): string {
  const typed = `vector(${dimensions})`;
  const filters = [`silo = $1`, `dimensions = ${dimensions}`, 'embedding_model = $4', query.tag === undefined ? '' : 'tag = $5', query.activeOnly ? `status = 'active'` : ''].filter(Boolean);
  return `
    SELECT ${COLUMNS}, embedding::text AS vector FROM (
      SELECT * FROM facts WHERE ${filters.join(' AND ')}
      ORDER BY ${candidateOrder(dimensions)} LIMIT $3
    ) AS candidates
    ORDER BY embedding::${typed} <=> $2::${typed}, number LIMIT ${Math.trunc(query.limit)}`;
}

export function createPostgresFacts(db: Db): FactStore {
  // Dimensions whose HNSW index this process knows exists.
  const indexed = new Set<number>();

  const wordCounts = createWordCounts(db);

  const siloVectors = async (silo: string): Promise<SiloVectors | undefined> =>
    (await db.read<SiloVectors>('SELECT embedding_model AS "embeddingModel", dimensions FROM fact_silos WHERE silo = $1', [silo]))[0];

  const ensureIndex = async (dimensions: number): Promise<void> => {
    if (dimensions > HNSW_MAX_DIMENSIONS || indexed.has(dimensions)) return;
    const [found] = await db.read<{ exists: boolean }>('SELECT to_regclass($1) IS NOT NULL AS exists', [hnswIndexName(dimensions)]);
    if (!found!.exists) {
      // Under a lock: two processes running CREATE INDEX IF NOT EXISTS at once can still collide.
      await db.transaction(async (client) => {
        await client.query('SELECT pg_advisory_xact_lock($1)', [INDEX_LOCK]);
        await client.query(createHnswIndexSql(dimensions));
      });
    }
    indexed.add(dimensions);
  };

  /** Checks a fact's vector against the silo's and makes sure its dimension's index exists, before the insert. */
  const checkInsert = async (silo: string, fact: NewFact): Promise<void> => {
    checkDimensions(fact.embedding.length);
    const stored = await siloVectors(silo);
    if (stored !== undefined) checkSiloVectors(silo, stored, fact.embeddingModel, fact.embedding.length);
    await ensureIndex(fact.embedding.length);
  };

  const insertRow = async (run: Run, silo: string, fact: NewFact): Promise<FactRecord> => {
    const dimensions = fact.embedding.length;
    const now = Date.now();
    const keys = [...new Set(fact.keys.map((key) => key.toLowerCase()))];
    // One statement: the silo row is created, or locked and checked, with the insert, so a
    // concurrent first fact of another model cannot slip in between.
    const { rows } = await run(
      `WITH silo AS (
         INSERT INTO fact_silos (silo, embedding_model, dimensions) VALUES ($1, $2, $3)
         ON CONFLICT (silo) DO UPDATE SET embedding_model = fact_silos.embedding_model RETURNING embedding_model, dimensions
       )
       INSERT INTO facts (id, silo, text, tag, date, source, keys, status, restates, subject, attribute, session_id, turn_id, embedding_model, created_at, updated_at, dimensions, embedding, search)
       SELECT $4, $1, $5, $6, $7, $8, $9, $16, $17, $18, $19, $10, $11, $2, $12, $13, $3, $14::vector, ${SEARCH_VECTOR('$15', '$5')}
       FROM silo WHERE silo.embedding_model = $2 AND silo.dimensions = $3
       RETURNING ${COLUMNS}`,
      [
        silo, fact.embeddingModel, dimensions, randomUUID(), fact.text, fact.tag, fact.date, fact.source, keys,
        fact.provenance?.sessionId ?? null, fact.provenance?.turnId ?? null, fact.createdAt ?? now, now, vectorLiteral(fact.embedding), keys.join(' '),
        fact.restates === undefined ? 'active' : 'merged', fact.restates ?? null, fact.subject ?? null, fact.attribute ?? null,
      ],
    );
    if (rows[0] === undefined) {
      checkSiloVectors(silo, (await siloVectors(silo))!, fact.embeddingModel, dimensions);
      throw new Error(`fact for silo '${silo}' was not stored: the silo changed while it was written; try again`);
    }
    return recordOf(rows[0]);
  };

  const factsWhere = async (where: string, params: readonly unknown[]): Promise<FactRecord[]> =>
    (await db.read<FactRow>(`SELECT ${COLUMNS} FROM facts WHERE ${where}`, params)).map(recordOf);

  return {
    async insertFact(silo: string, fact: NewFact): Promise<FactRecord> {
      assertSilo(silo);
      await checkInsert(silo, fact);
      return insertRow((sql, params) => db.write<FactRow>(sql, params), silo, fact);
    },
    async getFact(silo: string, id: string): Promise<FactRecord | undefined> {
      assertSilo(silo);
      return (await factsWhere('silo = $1 AND id = $2', [silo, id]))[0];
    },
    async listFacts(silo: string, options: ListFactsOptions = {}): Promise<FactRecord[]> {
      assertSilo(silo);
      const { status, tag, text, supersededBy, restates, after, limit } = options;
      // A cursor whose fact is gone has no number: the facts of its moment come again.
      return factsWhere(
        `silo = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR tag = $3)
           AND ($4::text IS NULL OR strpos(lower(text), lower($4)) > 0)
           AND ($5::text IS NULL OR superseded_by = $5) AND ($6::text IS NULL OR restates = $6)
           AND ($7::bigint IS NULL OR created_at < $7 OR (created_at = $7
             AND number < coalesce((SELECT number FROM facts WHERE silo = $1 AND id = $8), 9223372036854775807)))
         ORDER BY created_at DESC, number DESC LIMIT $9`,
        [silo, status ?? null, tag ?? null, text ?? null, supersededBy ?? null, restates ?? null, after?.createdAt ?? null, after?.id ?? null, limit ?? null],
      );
    },
    async searchVectors(silo: string, query: VectorQuery): Promise<ScoredFact[]> {
      assertSilo(silo);
      const dimensions = query.embedding.length;
      // The silo's model is checked only when nothing was found (a silo of another model yields no
      // rows): reading it first cost every search a round trip.
      const nothingFound = async (): Promise<ScoredFact[]> => {
        const stored = await siloVectors(silo);
        if (stored !== undefined) checkSiloVectors(silo, stored, query.embeddingModel, dimensions);
        return [];
      };
      if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > MAX_DIMENSIONS) return nothingFound();
      const params: unknown[] = [silo, vectorLiteral(query.embedding), Math.max(MIN_CANDIDATES, query.limit), query.embeddingModel];
      if (query.tag !== undefined) params.push(query.tag);
      const rows = await db.read<FactRow & { vector: string }>(vectorSearchSql(dimensions, query), params);
      if (rows.length === 0) return nothingFound();
      return rows
        .map((row) => ({ fact: recordOf(row), score: cosine(query.embedding, parseVector(row.vector)), number: row.number }))
        .sort((a, b) => b.score - a.score || a.number - b.number)
        .map(({ fact, score }) => ({ fact, score }));
    },
    async searchText(silo: string, text: string, limit: number): Promise<ScoredFact[]> {
      assertSilo(silo);
      const words = rankingWords(text);
      if (words.length === 0) return [];
      const counts = await wordCounts.current();
      // A word the statistics do not list is not common: it counts as held by one fact.
      for (const query of textQueries(words.map((word) => ({ word, facts: counts.get(word) ?? 1 })))) {
        // rankingWords holds letters and digits only, so joined with & and | it is a tsquery of plain words.
        const rows = await db.read<FactRow & { score: number }>(
          `SELECT ${COLUMNS}, ts_rank(search, query) AS score
           FROM facts, to_tsquery('simple', $2) AS query
           WHERE silo = $1 AND search @@ query ORDER BY score DESC, number LIMIT $3`,
          [silo, query.map((group) => `(${group.join(' & ')})`).join(' | '), limit],
        );
        if (rows.length > 0) return rows.map((row) => ({ fact: recordOf(row), score: row.score }));
      }
      return [];
    },
    async supersedeFacts(silo: string, ids: readonly string[], correctionId: string): Promise<number> {
      assertSilo(silo);
      if (ids.length === 0) return 0;
      const { rowCount } = await db.write(
        `UPDATE facts SET status = 'superseded', superseded_by = $3, updated_at = $4 WHERE silo = $1 AND status = 'active' AND id = ANY($2::text[])`,
        [silo, ids, correctionId, Date.now()],
      );
      return rowCount ?? 0;
    },
    async correctFact(silo: string, id: string, replacement: NewFact): Promise<FactRecord | undefined> {
      assertSilo(silo);
      await checkInsert(silo, replacement);
      return db.transaction(async (client) => {
        // Locked, so a concurrent correction of the same fact waits and then finds it superseded.
        const { rows } = await client.query<{ status: string }>('SELECT status FROM facts WHERE silo = $1 AND id = $2 FOR UPDATE', [silo, id]);
        if (rows[0]?.status !== 'active') return undefined;
        const record = await insertRow((sql, params) => client.query<FactRow>(sql, [...params]), silo, { ...replacement, restates: undefined });
        await client.query(`UPDATE facts SET status = 'superseded', superseded_by = $3, updated_at = $4 WHERE silo = $1 AND id = $2`, [silo, id, record.id, Date.now()]);
        return record;
      });
    },
    async unmergeFact(silo: string, id: string): Promise<FactRecord | undefined> {
      assertSilo(silo);
      const { rows } = await db.write<FactRow>(
        `UPDATE facts SET status = 'active', restates = NULL, updated_at = $3 WHERE silo = $1 AND id = $2 AND status = 'merged' RETURNING ${COLUMNS}`,
        [silo, id, Date.now()],
      );
      return rows[0] && recordOf(rows[0]);
    },
    async deleteFact(silo: string, id: string): Promise<boolean> {
      assertSilo(silo);
      // An emptied silo forgets its model, so it can start again with another. The sub-statements
      // share one snapshot, in which the deleted fact is still visible: hence the NOT IN.
      const [row] = (
        await db.write<{ deleted: number }>(
          `WITH gone AS (DELETE FROM facts WHERE silo = $1 AND id = $2 RETURNING number),
           emptied AS (
             DELETE FROM fact_silos WHERE silo = $1 AND EXISTS (SELECT 1 FROM gone)
               AND NOT EXISTS (SELECT 1 FROM facts WHERE silo = $1 AND number NOT IN (SELECT number FROM gone))
           )
           SELECT count(*) AS deleted FROM gone`,
          [silo, id],
        )
      ).rows;
      return row!.deleted > 0;
    },
    async purgeSilo(silo: string): Promise<number> {
      assertSilo(silo);
      return db.transaction(async (client) => {
        const { rowCount } = await client.query('DELETE FROM facts WHERE silo = $1', [silo]);
        await client.query('DELETE FROM fact_ingestion WHERE silo = $1', [silo]);
        await client.query('DELETE FROM fact_silos WHERE silo = $1', [silo]);
        return rowCount ?? 0;
      });
    },
    async listSilos(): Promise<SiloSummary[]> {
      return db.read<SiloSummary>(
        `SELECT s.silo, s.embedding_model AS "embeddingModel", count(f.number) AS facts, count(*) FILTER (WHERE f.status = 'active') AS active
         FROM fact_silos AS s LEFT JOIN facts AS f ON f.silo = s.silo GROUP BY s.silo ORDER BY s.silo`,
      );
    },
    async siloEmbeddingModel(silo: string): Promise<string | undefined> {
      assertSilo(silo);
      return (await siloVectors(silo))?.embeddingModel;
    },
    async replaceEmbeddings(silo: string, embeddingModel: string, embeddings: ReadonlyMap<string, Float32Array>): Promise<void> {
      assertSilo(silo);
      const vectors = [...embeddings.values()];
      const dimensions = vectors[0]?.length ?? 0;
      if (vectors.length > 0) {
        checkDimensions(dimensions);
        const odd = vectors.find((vector) => vector.length !== dimensions);
        if (odd !== undefined) throw new Error(`re-embedding silo '${silo}': vectors of ${odd.length} and ${dimensions} dimensions from one model`);
        await ensureIndex(dimensions);
      }
      await db.transaction(async (client) => {
        // Locks the silo's facts, so none is added or removed while their vectors are replaced.
        const { rows } = await client.query<{ id: string }>('SELECT id FROM facts WHERE silo = $1 FOR UPDATE', [silo]);
        const missing = rows.filter(({ id }) => !embeddings.has(id)).length;
        if (missing > 0 || rows.length !== embeddings.size) throw incompleteReembedding(silo, rows.length, embeddings.size, missing);
        if (rows.length === 0) return;
        await client.query(
          `UPDATE facts AS f SET embedding = v.embedding::vector, dimensions = $3, embedding_model = $2
           FROM unnest($4::text[], $5::text[]) AS v (id, embedding) WHERE f.silo = $1 AND f.id = v.id`,
          [silo, embeddingModel, dimensions, [...embeddings.keys()], vectors.map(vectorLiteral)],
        );
        await client.query('UPDATE fact_silos SET embedding_model = $2, dimensions = $3 WHERE silo = $1', [silo, embeddingModel, dimensions]);
      });
    },
    async ingestedThrough(silo: string, sessionId: string): Promise<number> {
      assertSilo(silo);
      const [row] = await db.read<{ throughSeq: number }>('SELECT through_seq AS "throughSeq" FROM fact_ingestion WHERE silo = $1 AND session_id = $2', [silo, sessionId]);
      return row?.throughSeq ?? 0;
    },
    async setIngestedThrough(silo: string, sessionId: string, seq: number): Promise<void> {
      assertSilo(silo);
      await db.write(
        `INSERT INTO fact_ingestion (silo, session_id, through_seq) VALUES ($1, $2, $3)
         ON CONFLICT (silo, session_id) DO UPDATE SET through_seq = excluded.through_seq`,
        [silo, sessionId, seq],
      );
    },
  };
}
