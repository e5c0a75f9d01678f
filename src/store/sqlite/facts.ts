import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { assertSilo } from '../../memory/silo.js';
import {
  EmbeddingModelMismatchError,
  type FactRecord,
  type FactStatus,
  type FactStore,
  type FactTag,
  type ListFactsOptions,
  type NewFact,
  rankingWords,
  type ScoredFact,
  type SiloSummary,
  type VectorQuery,
} from '../facts.js';

// Facts on SQLite: rows in `facts`, vectors in one vec0 table per dimension partitioned by silo,
// words in the contentless FTS5 table `fact_text`; all three share the fact's row number.

interface FactRow {
  number: number;
  id: string;
  silo: string;
  text: string;
  tag: string;
  date: string | null;
  source: string;
  keys: string;
  status: string;
  supersededBy: string | null;
  sessionId: string | null;
  turnId: string | null;
  embeddingModel: string;
  createdAt: number;
  updatedAt: number;
}

interface SiloRow {
  embeddingModel: string;
  dimensions: number;
}

interface Neighbour {
  rowid: number;
  distance: number;
}

const COLUMNS = `number, id, silo, text, tag, date, source, keys, status, superseded_by AS supersededBy, session_id AS sessionId,
  turn_id AS turnId, embedding_model AS embeddingModel, created_at AS createdAt, updated_at AS updatedAt`;

// vec0 accepts up to 8192 dimensions; real embedders use 256 to 3072.
const MAX_DIMENSIONS = 8192;
// SQLite reads a negative LIMIT as "no limit".
const NO_LIMIT = -1;

function recordOf(row: FactRow): FactRecord {
  return {
    id: row.id,
    silo: row.silo,
    text: row.text,
    tag: row.tag as FactTag,
    date: row.date,
    source: row.source,
    keys: JSON.parse(row.keys) as string[],
    status: row.status as FactStatus,
    supersededBy: row.supersededBy,
    provenance: row.sessionId === null || row.turnId === null ? null : { sessionId: row.sessionId, turnId: row.turnId },
    embeddingModel: row.embeddingModel,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function vectorTable(dimensions: number): string {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > MAX_DIMENSIONS) {
    throw new Error(`cannot store a ${dimensions}-dimensional vector: embeddings must have 1 to ${MAX_DIMENSIONS} dimensions`);
  }
  return `fact_vectors_${dimensions}`;
}

/** Any ranking word of the text, each quoted so FTS5 operators in user text are read as words. */
function ftsQuery(text: string): string | undefined {
  const words = rankingWords(text);
  return words.length === 0 ? undefined : words.map((word) => `"${word}"`).join(' OR ');
}

function prepareStatements(db: Database.Database) {
  return {
    tableExists: db.prepare<[name: string], { found: number }>("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = ?"),
    selectSilo: db.prepare<[silo: string], SiloRow>('SELECT embedding_model AS embeddingModel, dimensions FROM fact_silos WHERE silo = ?'),
    insertSilo: db.prepare<[silo: string, model: string, dimensions: number]>('INSERT INTO fact_silos (silo, embedding_model, dimensions) VALUES (?, ?, ?)'),
    updateSilo: db.prepare<[model: string, dimensions: number, silo: string]>('UPDATE fact_silos SET embedding_model = ?, dimensions = ? WHERE silo = ?'),
    deleteSilo: db.prepare<[silo: string]>('DELETE FROM fact_silos WHERE silo = ?'),
    listSilos: db.prepare<[], SiloSummary>(
      `SELECT s.silo, s.embedding_model AS embeddingModel, count(f.number) AS facts, coalesce(sum(f.status = 'active'), 0) AS active
       FROM fact_silos AS s LEFT JOIN facts AS f ON f.silo = s.silo GROUP BY s.silo ORDER BY s.silo`,
    ),
    insertFact: db.prepare<
      [id: string, silo: string, text: string, tag: string, date: string | null, source: string, keys: string, sessionId: string | null, turnId: string | null, model: string, createdAt: number, updatedAt: number]
    >(
      `INSERT INTO facts (id, silo, text, tag, date, source, keys, status, session_id, turn_id, embedding_model, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?, ?, ?)`,
    ),
    insertText: db.prepare<[number: number, text: string, keys: string]>('INSERT INTO fact_text (rowid, text, keys) VALUES (?, ?, ?)'),
    deleteText: db.prepare<[number: number]>('DELETE FROM fact_text WHERE rowid = ?'),
    deleteSiloText: db.prepare<[silo: string]>('DELETE FROM fact_text WHERE rowid IN (SELECT number FROM facts WHERE silo = ?)'),
    // Merges the index's segments, so entries of deleted facts leave the file rather than wait for a merge.
    optimizeText: db.prepare("INSERT INTO fact_text (fact_text) VALUES ('optimize')"),
    selectFact: db.prepare<[silo: string, id: string], FactRow>(`SELECT ${COLUMNS} FROM facts WHERE silo = ? AND id = ?`),
    selectNumbers: db.prepare<[silo: string, numbers: string], FactRow>(
      `SELECT ${COLUMNS} FROM facts WHERE silo = ? AND number IN (SELECT value FROM json_each(?))`,
    ),
    listFacts: db.prepare<[{ silo: string; status: string | null; limit: number }], FactRow>(
      `SELECT ${COLUMNS} FROM facts WHERE silo = @silo AND (@status IS NULL OR status = @status) ORDER BY created_at DESC, number DESC LIMIT @limit`,
    ),
    searchText: db.prepare<[query: string, silo: string, limit: number], FactRow & { score: number }>(
      `SELECT ${COLUMNS}, score
       FROM (SELECT rowid AS hit, -bm25(fact_text, 1.0, 2.0) AS score FROM fact_text WHERE fact_text MATCH ?)
       JOIN facts ON number = hit
       WHERE silo = ? ORDER BY score DESC LIMIT ?`,
    ),
    supersede: db.prepare<[correctionId: string, updatedAt: number, silo: string, ids: string], { number: number }>(
      `UPDATE facts SET status = 'superseded', superseded_by = ?, updated_at = ?
       WHERE silo = ? AND status = 'active' AND id IN (SELECT value FROM json_each(?)) RETURNING number`,
    ),
    deleteFact: db.prepare<[silo: string, id: string], { number: number }>('DELETE FROM facts WHERE silo = ? AND id = ? RETURNING number'),
    deleteSiloFacts: db.prepare<[silo: string]>('DELETE FROM facts WHERE silo = ?'),
    countFacts: db.prepare<[silo: string], { count: number }>('SELECT count(*) AS count FROM facts WHERE silo = ?'),
    selectIdsAndNumbers: db.prepare<[silo: string], Pick<FactRow, 'number' | 'id' | 'tag' | 'status'>>(
      'SELECT number, id, tag, status FROM facts WHERE silo = ?',
    ),
    setModel: db.prepare<[model: string, silo: string]>('UPDATE facts SET embedding_model = ? WHERE silo = ?'),
    selectMark: db.prepare<[silo: string, sessionId: string], { throughSeq: number }>(
      'SELECT through_seq AS throughSeq FROM fact_ingestion WHERE silo = ? AND session_id = ?',
    ),
    upsertMark: db.prepare<[silo: string, sessionId: string, seq: number]>(
      'INSERT INTO fact_ingestion (silo, session_id, through_seq) VALUES (?, ?, ?) ON CONFLICT (silo, session_id) DO UPDATE SET through_seq = excluded.through_seq',
    ),
    deleteMarks: db.prepare<[silo: string]>('DELETE FROM fact_ingestion WHERE silo = ?'),
  };
}

export function createSqliteFacts(db: Database.Database, committed: () => void): FactStore {
  const sql = prepareStatements(db);
  // vec0 tables are per dimension, so their statements are prepared on first use.
  const statements = new Map<string, Database.Statement>();
  const statement = (text: string): Database.Statement => statements.get(text) ?? statements.set(text, db.prepare(text)).get(text)!;

  // Looked up rather than remembered: a rolled-back transaction also rolls back the table's creation.
  const ensureVectorTable = (dimensions: number): string => {
    const table = vectorTable(dimensions);
    if (sql.tableExists.get(table) !== undefined) return table;
    db.exec(`CREATE VIRTUAL TABLE ${table} USING vec0 (silo TEXT PARTITION KEY, embedding FLOAT[${dimensions}] DISTANCE_METRIC=cosine, tag TEXT, status TEXT)`);
    return table;
  };
  const insertVector = (table: string, number: number, silo: string, embedding: Float32Array, tag: string, status: string): void => {
    // vec0 takes only BigInt rowids from better-sqlite3.
    statement(`INSERT INTO ${table} (rowid, silo, embedding, tag, status) VALUES (?, ?, ?, ?, ?)`).run(BigInt(number), silo, embedding, tag, status);
  };

  const siloModelFor = (silo: string, model: string, dimensions: number): SiloRow => {
    const row = sql.selectSilo.get(silo);
    if (row === undefined) return { embeddingModel: model, dimensions };
    if (row.embeddingModel !== model) throw new EmbeddingModelMismatchError(silo, row.embeddingModel, model);
    if (row.dimensions !== dimensions) {
      throw new Error(`embedding model '${model}' returned ${dimensions} dimensions, but silo '${silo}' holds ${row.dimensions}-dimensional vectors from it`);
    }
    return row;
  };

  const insertFact = db.transaction((silo: string, fact: NewFact): FactRecord => {
    const dimensions = fact.embedding.length;
    if (sql.selectSilo.get(silo) === undefined) sql.insertSilo.run(silo, fact.embeddingModel, dimensions);
    else siloModelFor(silo, fact.embeddingModel, dimensions);
    const table = ensureVectorTable(dimensions);
    const id = randomUUID();
    const now = Date.now();
    const createdAt = fact.createdAt ?? now;
    const keys = [...new Set(fact.keys.map((key) => key.toLowerCase()))];
    const { lastInsertRowid } = sql.insertFact.run(
      id, silo, fact.text, fact.tag, fact.date, fact.source, JSON.stringify(keys),
      fact.provenance?.sessionId ?? null, fact.provenance?.turnId ?? null, fact.embeddingModel, createdAt, now,
    );
    const number = Number(lastInsertRowid);
    insertVector(table, number, silo, fact.embedding, fact.tag, 'active');
    sql.insertText.run(number, fact.text, keys.join(' '));
    return recordOf(sql.selectFact.get(silo, id)!);
  });

  const supersede = db.transaction((silo: string, ids: readonly string[], correctionId: string): number => {
    const changed = sql.supersede.all(correctionId, Date.now(), silo, JSON.stringify(ids));
    if (changed.length === 0) return 0;
    const table = vectorTable(sql.selectSilo.get(silo)!.dimensions);
    for (const { number } of changed) statement(`UPDATE ${table} SET status = 'superseded' WHERE rowid = ?`).run(BigInt(number));
    return changed.length;
  });

  const deleteFact = db.transaction((silo: string, id: string): boolean => {
    const deleted = sql.deleteFact.get(silo, id);
    if (deleted === undefined) return false;
    const { dimensions } = sql.selectSilo.get(silo)!;
    statement(`DELETE FROM ${vectorTable(dimensions)} WHERE rowid = ?`).run(BigInt(deleted.number));
    sql.deleteText.run(deleted.number);
    // An emptied silo forgets its model, so it can start again with another.
    if (sql.countFacts.get(silo)!.count === 0) sql.deleteSilo.run(silo);
    return true;
  });

  const purge = db.transaction((silo: string): number => {
    const row = sql.selectSilo.get(silo);
    if (row !== undefined) statement(`DELETE FROM ${vectorTable(row.dimensions)} WHERE silo = ?`).run(silo);
    sql.deleteSiloText.run(silo);
    const { changes } = sql.deleteSiloFacts.run(silo);
    sql.deleteMarks.run(silo);
    sql.deleteSilo.run(silo);
    return changes;
  });

  const replaceEmbeddings = db.transaction((silo: string, model: string, embeddings: ReadonlyMap<string, Float32Array>): void => {
    const facts = sql.selectIdsAndNumbers.all(silo);
    const missing = facts.filter((fact) => !embeddings.has(fact.id));
    if (missing.length > 0 || facts.length !== embeddings.size) {
      throw new Error(`re-embedding silo '${silo}' needs exactly one vector per fact: ${facts.length} facts, ${embeddings.size} vectors, ${missing.length} facts without one`);
    }
    const old = sql.selectSilo.get(silo);
    if (old === undefined) return;
    const dimensions = embeddings.values().next().value!.length;
    statement(`DELETE FROM ${vectorTable(old.dimensions)} WHERE silo = ?`).run(silo);
    const table = ensureVectorTable(dimensions);
    for (const fact of facts) {
      const embedding = embeddings.get(fact.id)!;
      if (embedding.length !== dimensions) throw new Error(`re-embedding silo '${silo}': vectors of ${embedding.length} and ${dimensions} dimensions from one model`);
      insertVector(table, fact.number, silo, embedding, fact.tag, fact.status);
    }
    sql.setModel.run(model, silo);
    sql.updateSilo.run(model, dimensions, silo);
  });

  const factsByNumber = (silo: string, numbers: readonly number[]): Map<number, FactRecord> => {
    const rows = sql.selectNumbers.all(silo, JSON.stringify(numbers));
    return new Map(rows.map((row) => [row.number, recordOf(row)]));
  };

  return {
    async insertFact(silo: string, fact: NewFact): Promise<FactRecord> {
      assertSilo(silo);
      const record = insertFact.immediate(silo, fact);
      committed();
      return record;
    },
    async getFact(silo: string, id: string): Promise<FactRecord | undefined> {
      assertSilo(silo);
      const row = sql.selectFact.get(silo, id);
      return row && recordOf(row);
    },
    async listFacts(silo: string, { status, limit = NO_LIMIT }: ListFactsOptions = {}): Promise<FactRecord[]> {
      assertSilo(silo);
      return sql.listFacts.all({ silo, status: status ?? null, limit }).map(recordOf);
    },
    async searchVectors(silo: string, query: VectorQuery): Promise<ScoredFact[]> {
      assertSilo(silo);
      const row = sql.selectSilo.get(silo);
      if (row === undefined) return [];
      siloModelFor(silo, query.embeddingModel, query.embedding.length);
      const filters = [query.tag === undefined ? '' : 'AND tag = @tag', query.activeOnly ? "AND status = 'active'" : ''].join(' ');
      const neighbours = statement(
        `SELECT rowid, distance FROM ${vectorTable(row.dimensions)} WHERE embedding MATCH @embedding AND k = @k AND silo = @silo ${filters}`,
      ).all({ embedding: query.embedding, k: query.limit, silo, ...(query.tag === undefined ? {} : { tag: query.tag }) }) as Neighbour[];
      const facts = factsByNumber(silo, neighbours.map((neighbour) => neighbour.rowid));
      // Cosine distance is 1 - cosine similarity.
      return neighbours.flatMap(({ rowid, distance }) => {
        const fact = facts.get(rowid);
        return fact ? [{ fact, score: 1 - distance }] : [];
      });
    },
    async searchText(silo: string, text: string, limit: number): Promise<ScoredFact[]> {
      assertSilo(silo);
      const query = ftsQuery(text);
      if (query === undefined) return [];
      return sql.searchText.all(query, silo, limit).map(({ score, ...row }) => ({ fact: recordOf(row), score }));
    },
    async supersedeFacts(silo: string, ids: readonly string[], correctionId: string): Promise<number> {
      assertSilo(silo);
      if (ids.length === 0) return 0;
      const changed = supersede.immediate(silo, ids, correctionId);
      committed();
      return changed;
    },
    async deleteFact(silo: string, id: string): Promise<boolean> {
      assertSilo(silo);
      const deleted = deleteFact.immediate(silo, id);
      committed();
      return deleted;
    },
    async purgeSilo(silo: string): Promise<number> {
      assertSilo(silo);
      const deleted = purge.immediate(silo);
      sql.optimizeText.run();
      committed();
      return deleted;
    },
    async listSilos(): Promise<SiloSummary[]> {
      return sql.listSilos.all();
    },
    async siloEmbeddingModel(silo: string): Promise<string | undefined> {
      assertSilo(silo);
      return sql.selectSilo.get(silo)?.embeddingModel;
    },
    async replaceEmbeddings(silo: string, embeddingModel: string, embeddings: ReadonlyMap<string, Float32Array>): Promise<void> {
      assertSilo(silo);
      replaceEmbeddings.immediate(silo, embeddingModel, embeddings);
      committed();
    },
    async ingestedThrough(silo: string, sessionId: string): Promise<number> {
      assertSilo(silo);
      return sql.selectMark.get(silo, sessionId)?.throughSeq ?? 0;
    },
    async setIngestedThrough(silo: string, sessionId: string, seq: number): Promise<void> {
      assertSilo(silo);
      sql.upsertMark.run(silo, sessionId, seq);
      committed();
    },
  };
}
