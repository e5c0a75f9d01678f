import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { assertSilo } from '../../core/silo.js';
import { binaryCode, codeBytes } from './binaryCodes.js';
import { eraseOldPageVersions, NO_LIMIT } from './connection.js';
import { cosine } from '../vectors.js';
import { createSiloIndex, type IndexedCode, type SiloIndex } from './factIndex.js';
import {
  checkSiloVectors,
  type FactRecord,
  type FactStatus,
  type FactStore,
  type FactTag,
  incompleteReembedding,
  type ListFactsOptions,
  type NewFact,
  rankingWords,
  type ScoredFact,
  textQueries,
  type SiloSummary,
  type VectorQuery,
} from '../facts.js';

import { CODE_PAGE, COLUMNS, MAX_INDEXED_FACTS, RERANK_FACTOR, RERANK_MIN, blobOf, checkDimensions, ftsQuery, moveLegacyVectors, recordOf, vectorOf, type CodePage, type FactRow, type SiloRow } from './factRows.js';
// Facts on SQLite: rows in `facts`, float vectors in `fact_embeddings`, their binary codes in
// `fact_codes` (and in memory, see factIndex.ts), words in the contentless FTS5 table `fact_text`;
// all share the fact's row number. A vector search scans the silo's codes by Hamming distance,
// then ranks the nearest few hundred by exact cosine similarity on their float vectors.

interface ListParams {
  silo: string;
  status: string | null;
  tag: string | null;
  text: string | null;
  supersededBy: string | null;
  restates: string | null;
  afterAt: number | null;
  afterId: string | null;
  limit: number;
}

function prepareStatements(db: Database.Database) {
  return {
    selectSilo: db.prepare<[silo: string], SiloRow>('SELECT embedding_model AS embeddingModel, dimensions, version FROM fact_silos WHERE silo = ?'),
    // A new silo's version starts at random, so a process that cached a silo deleted and refilled since cannot mistake it for the old one.
    insertSilo: db.prepare<[silo: string, model: string, dimensions: number]>(
      'INSERT INTO fact_silos (silo, embedding_model, dimensions, version) VALUES (?, ?, ?, random() >> 12)',
    ),
    updateSilo: db.prepare<[model: string, dimensions: number, silo: string]>('UPDATE fact_silos SET embedding_model = ?, dimensions = ? WHERE silo = ?'),
    bumpVersion: db.prepare<[silo: string]>('UPDATE fact_silos SET version = version + 1 WHERE silo = ?'),
    deleteSilo: db.prepare<[silo: string]>('DELETE FROM fact_silos WHERE silo = ?'),
    listSilos: db.prepare<[], SiloSummary>(
      `SELECT s.silo, s.embedding_model AS embeddingModel, count(f.number) AS facts, coalesce(sum(f.status = 'active'), 0) AS active
       FROM fact_silos AS s LEFT JOIN facts AS f ON f.silo = s.silo GROUP BY s.silo ORDER BY s.silo`,
    ),
    insertFact: db.prepare<
      [id: string, silo: string, text: string, tag: string, date: string | null, source: string, keys: string, status: string, restates: string | null, subject: string | null, attribute: string | null, sessionId: string | null, turnId: string | null, model: string, createdAt: number, updatedAt: number]
    >(
      `INSERT INTO facts (id, silo, text, tag, date, source, keys, status, restates, subject, attribute, session_id, turn_id, embedding_model, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    insertCode: db.prepare<[silo: string, number: number, tag: string, status: string, code: Uint8Array]>(
      'INSERT INTO fact_codes (silo, number, tag, status, code) VALUES (?, ?, ?, ?, ?)',
    ),
    insertEmbedding: db.prepare<[number: number, embedding: Buffer]>('INSERT INTO fact_embeddings (number, embedding) VALUES (?, ?)'),
    selectCodePage: db.prepare<[silo: string, after: number, limit: number], CodePage>(
      `SELECT count(*) AS count, max(number) AS last, group_concat(number) AS numbers, group_concat(tag) AS tags,
         group_concat(status = 'active', '') AS active, group_concat(hex(code), '') AS codes
       FROM (SELECT number, tag, status, code FROM fact_codes WHERE silo = ? AND number > ? ORDER BY number LIMIT ?)`,
    ),
    selectEmbeddings: db.prepare<[numbers: string], { number: number; embedding: Buffer }>(
      'SELECT number, embedding FROM fact_embeddings WHERE number IN (SELECT value FROM json_each(?))',
    ),
    setCodeStatus: db.prepare<[status: string, silo: string, number: number]>('UPDATE fact_codes SET status = ? WHERE silo = ? AND number = ?'),
    unmerge: db.prepare<[updatedAt: number, silo: string, id: string], { number: number }>(
      `UPDATE facts SET status = 'active', restates = NULL, updated_at = ? WHERE silo = ? AND id = ? AND status = 'merged' RETURNING number`,
    ),
    deleteCode: db.prepare<[silo: string, number: number]>('DELETE FROM fact_codes WHERE silo = ? AND number = ?'),
    deleteEmbedding: db.prepare<[number: number]>('DELETE FROM fact_embeddings WHERE number = ?'),
    deleteSiloCodes: db.prepare<[silo: string]>('DELETE FROM fact_codes WHERE silo = ?'),
    deleteSiloEmbeddings: db.prepare<[silo: string]>('DELETE FROM fact_embeddings WHERE number IN (SELECT number FROM facts WHERE silo = ?)'),
    insertText: db.prepare<[number: number, text: string, keys: string]>('INSERT INTO fact_text (rowid, text, keys) VALUES (?, ?, ?)'),
    deleteText: db.prepare<[number: number]>('DELETE FROM fact_text WHERE rowid = ?'),
    deleteSiloText: db.prepare<[silo: string]>('DELETE FROM fact_text WHERE rowid IN (SELECT number FROM facts WHERE silo = ?)'),
    // Merges the index's segments, so entries of deleted facts leave the file rather than wait for a merge.
    optimizeText: db.prepare("INSERT INTO fact_text (fact_text) VALUES ('optimize')"),
    wordFacts: db.prepare<[words: string], { word: string; facts: number }>(
      'SELECT term AS word, doc AS facts FROM fact_text_vocab WHERE term IN (SELECT value FROM json_each(?))',
    ),
    selectFact: db.prepare<[silo: string, id: string], FactRow>(`SELECT ${COLUMNS} FROM facts WHERE silo = ? AND id = ?`),
    // +silo keeps the planner on the primary key: through facts_by_silo it would walk the whole silo.
    selectNumbers: db.prepare<[silo: string, numbers: string], FactRow>(
      `SELECT ${COLUMNS} FROM facts WHERE +silo = ? AND number IN (SELECT value FROM json_each(?))`,
    ),
    // A cursor whose fact is gone has no number: the facts of its moment come again (9223372036854775807 is the largest rowid).
    listFacts: db.prepare<[ListParams], FactRow>(
      `SELECT ${COLUMNS} FROM facts WHERE silo = @silo
         AND (@status IS NULL OR status = @status) AND (@tag IS NULL OR tag = @tag)
         AND (@text IS NULL OR instr(lower(text), lower(@text)) > 0)
         AND (@supersededBy IS NULL OR superseded_by = @supersededBy) AND (@restates IS NULL OR restates = @restates)
         AND (@afterAt IS NULL OR created_at < @afterAt OR (created_at = @afterAt
           AND number < coalesce((SELECT number FROM facts WHERE silo = @silo AND id = @afterId), 9223372036854775807)))
       ORDER BY created_at DESC, number DESC LIMIT @limit`,
    ),
    // Ranks in FTS5 first, then reads only the matches' numbers and silos.
    searchText: db.prepare<[query: string, silo: string, limit: number], { number: number; score: number }>(
      `SELECT number, score
       FROM (SELECT rowid AS hit, -bm25(fact_text, 1.0, 2.0) AS score FROM fact_text WHERE fact_text MATCH ?)
       JOIN facts ON number = hit
       WHERE +silo = ? ORDER BY score DESC LIMIT ?`,
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
  moveLegacyVectors(db);
  const sql = prepareStatements(db);
  // Codes of recently searched silos, least recently searched first.
  const indexes = new Map<string, SiloIndex>();

  const siloModelFor = (silo: string, model: string, dimensions: number): SiloRow | undefined => {
    const row = sql.selectSilo.get(silo);
    if (row !== undefined) checkSiloVectors(silo, row, model, dimensions);
    return row;
  };

  function* codesOf(silo: string, bytes: number): Generator<IndexedCode> {
    for (let after = 0; ; ) {
      const page = sql.selectCodePage.get(silo, after, CODE_PAGE)!;
      if (page.count === 0) return;
      const numbers = page.numbers!.split(',');
      const tags = page.tags!.split(',');
      const codes = Buffer.from(page.codes!, 'hex');
      for (let i = 0; i < page.count; i++) {
        yield {
          number: Number(numbers[i]),
          tag: tags[i] as FactTag,
          status: page.active![i] === '1' ? 'active' : 'superseded',
          code: codes.subarray(i * bytes, (i + 1) * bytes),
        };
      }
      if (page.count < CODE_PAGE) return;
      after = page.last!;
    }
  }

  /** The silo's codes at `row.version`: kept when current, loaded again when another process wrote. */
  const indexFor = (silo: string, row: SiloRow): SiloIndex => {
    let index = indexes.get(silo);
    indexes.delete(silo);
    if (index?.version !== row.version) index = createSiloIndex(row.version, codeBytes(row.dimensions), codesOf(silo, codeBytes(row.dimensions)));
    indexes.set(silo, index);
    let held = [...indexes.values()].reduce((sum, each) => sum + each.size, 0);
    for (const [other, each] of indexes) {
      if (held <= MAX_INDEXED_FACTS || other === silo) break;
      indexes.delete(other);
      held -= each.size;
    }
    return index;
  };

  /**
   * After a committed write that moved the silo from version `before` to `before + 1`: a cached
   * index that was at `before` takes the change, one at another version (it missed another
   * process's write) is dropped and loaded again by the next search.
   */
  const afterWrite = (silo: string, before: number | undefined, change: (index: SiloIndex) => void): void => {
    const index = indexes.get(silo);
    if (index === undefined) return;
    if (before === undefined || index.version !== before) {
      indexes.delete(silo);
      return;
    }
    change(index);
    index.version = before + 1;
  };

  const insertFact = db.transaction((silo: string, fact: NewFact) => {
    const dimensions = fact.embedding.length;
    checkDimensions(dimensions);
    const existing = siloModelFor(silo, fact.embeddingModel, dimensions);
    if (existing === undefined) sql.insertSilo.run(silo, fact.embeddingModel, dimensions);
    else sql.bumpVersion.run(silo);
    const id = randomUUID();
    const now = Date.now();
    const createdAt = fact.createdAt ?? now;
    const keys = [...new Set(fact.keys.map((key) => key.toLowerCase()))];
    const status: FactStatus = fact.restates === undefined ? 'active' : 'merged';
    const { lastInsertRowid } = sql.insertFact.run(
      id, silo, fact.text, fact.tag, fact.date, fact.source, JSON.stringify(keys), status, fact.restates ?? null, fact.subject ?? null, fact.attribute ?? null,
      fact.provenance?.sessionId ?? null, fact.provenance?.turnId ?? null, fact.embeddingModel, createdAt, now,
    );
    const number = Number(lastInsertRowid);
    const code = binaryCode(fact.embedding);
    sql.insertCode.run(silo, number, fact.tag, status, code);
    sql.insertEmbedding.run(number, blobOf(fact.embedding));
    sql.insertText.run(number, fact.text, keys.join(' '));
    const entry: IndexedCode = { number, tag: fact.tag, status, code };
    return { record: recordOf(sql.selectFact.get(silo, id)!), before: existing?.version, entry };
  });

  const supersede = db.transaction((silo: string, ids: readonly string[], correctionId: string) => {
    const changed = sql.supersede.all(correctionId, Date.now(), silo, JSON.stringify(ids));
    if (changed.length === 0) return { changed, before: undefined };
    const before = sql.selectSilo.get(silo)!.version;
    sql.bumpVersion.run(silo);
    for (const { number } of changed) sql.setCodeStatus.run('superseded', silo, number);
    return { changed, before };
  });

  const correct = db.transaction((silo: string, id: string, replacement: NewFact): FactRecord | undefined => {
    if (sql.selectFact.get(silo, id)?.status !== 'active') return undefined;
    const { record } = insertFact(silo, { ...replacement, restates: undefined });
    for (const { number } of sql.supersede.all(record.id, Date.now(), silo, JSON.stringify([id]))) sql.setCodeStatus.run('superseded', silo, number);
    return record;
  });

  const unmerge = db.transaction((silo: string, id: string) => {
    const changed = sql.unmerge.get(Date.now(), silo, id);
    if (changed === undefined) return undefined;
    const before = sql.selectSilo.get(silo)!.version;
    sql.bumpVersion.run(silo);
    sql.setCodeStatus.run('active', silo, changed.number);
    return { number: changed.number, before };
  });

  const deleteFact = db.transaction((silo: string, id: string) => {
    const deleted = sql.deleteFact.get(silo, id);
    if (deleted === undefined) return undefined;
    const before = sql.selectSilo.get(silo)!.version;
    sql.bumpVersion.run(silo);
    sql.deleteCode.run(silo, deleted.number);
    sql.deleteEmbedding.run(deleted.number);
    sql.deleteText.run(deleted.number);
    // An emptied silo forgets its model, so it can start again with another.
    if (sql.countFacts.get(silo)!.count === 0) sql.deleteSilo.run(silo);
    return { number: deleted.number, before };
  });

  const purge = db.transaction((silo: string): number => {
    sql.deleteSiloCodes.run(silo);
    sql.deleteSiloEmbeddings.run(silo);
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
      throw incompleteReembedding(silo, facts.length, embeddings.size, missing.length);
    }
    if (sql.selectSilo.get(silo) === undefined) return;
    const dimensions = embeddings.values().next().value!.length;
    checkDimensions(dimensions);
    sql.deleteSiloCodes.run(silo);
    sql.deleteSiloEmbeddings.run(silo);
    for (const fact of facts) {
      const embedding = embeddings.get(fact.id)!;
      if (embedding.length !== dimensions) throw new Error(`re-embedding silo '${silo}': vectors of ${embedding.length} and ${dimensions} dimensions from one model`);
      sql.insertCode.run(silo, fact.number, fact.tag, fact.status, binaryCode(embedding));
      sql.insertEmbedding.run(fact.number, blobOf(embedding));
    }
    sql.setModel.run(model, silo);
    sql.updateSilo.run(model, dimensions, silo);
    sql.bumpVersion.run(silo);
  });

  const factsByNumber = (silo: string, numbers: readonly number[]): Map<number, FactRecord> => {
    const rows = sql.selectNumbers.all(silo, JSON.stringify(numbers));
    return new Map(rows.map((row) => [row.number, recordOf(row)]));
  };

  // One read transaction, so the codes, vectors and rows all come from one state of the file.
  const searchVectors = db.transaction((silo: string, query: VectorQuery): ScoredFact[] => {
    const row = siloModelFor(silo, query.embeddingModel, query.embedding.length);
    if (row === undefined) return [];
    const index = indexFor(silo, row);
    const candidates = index.nearest(binaryCode(query.embedding), Math.max(RERANK_MIN, query.limit * RERANK_FACTOR), query);
    const nearest = sql.selectEmbeddings
      .all(JSON.stringify(candidates))
      .map(({ number, embedding }) => ({ number, score: cosine(query.embedding, vectorOf(embedding)) }))
      .sort((a, b) => b.score - a.score || a.number - b.number)
      .slice(0, query.limit);
    const facts = factsByNumber(silo, nearest.map(({ number }) => number));
    return nearest.flatMap(({ number, score }) => {
      const fact = facts.get(number);
      return fact ? [{ fact, score }] : [];
    });
  });

  const searchText = db.transaction((silo: string, text: string, limit: number): ScoredFact[] => {
    const words = rankingWords(text);
    if (words.length === 0) return [];
    let hits: Array<{ number: number; score: number }> = [];
    // Word counts are over every silo, as is the cost of ranking: the index is not partitioned by silo.
    for (const query of textQueries(sql.wordFacts.all(JSON.stringify(words)))) {
      hits = sql.searchText.all(ftsQuery(query), silo, limit);
      if (hits.length > 0) break;
    }
    const facts = factsByNumber(silo, hits.map(({ number }) => number));
    return hits.flatMap(({ number, score }) => {
      const fact = facts.get(number);
      return fact ? [{ fact, score }] : [];
    });
  });

  return {
    async insertFact(silo: string, fact: NewFact): Promise<FactRecord> {
      assertSilo(silo);
      const { record, before, entry } = insertFact.immediate(silo, fact);
      committed();
      afterWrite(silo, before, (index) => index.add(entry));
      return record;
    },
    async getFact(silo: string, id: string): Promise<FactRecord | undefined> {
      assertSilo(silo);
      const row = sql.selectFact.get(silo, id);
      return row && recordOf(row);
    },
    async listFacts(silo: string, options: ListFactsOptions = {}): Promise<FactRecord[]> {
      assertSilo(silo);
      const { status, tag, text, supersededBy, restates, after, limit = NO_LIMIT } = options;
      return sql.listFacts
        .all({
          silo, status: status ?? null, tag: tag ?? null, text: text ?? null, supersededBy: supersededBy ?? null, restates: restates ?? null,
          afterAt: after?.createdAt ?? null, afterId: after?.id ?? null, limit,
        })
        .map(recordOf);
    },
    async searchVectors(silo: string, query: VectorQuery): Promise<ScoredFact[]> {
      assertSilo(silo);
      return searchVectors(silo, query);
    },
    async searchText(silo: string, text: string, limit: number): Promise<ScoredFact[]> {
      assertSilo(silo);
      return searchText(silo, text, limit);
    },
    async supersedeFacts(silo: string, ids: readonly string[], correctionId: string): Promise<number> {
      assertSilo(silo);
      if (ids.length === 0) return 0;
      const { changed, before } = supersede.immediate(silo, ids, correctionId);
      committed();
      if (changed.length > 0) afterWrite(silo, before, (index) => changed.forEach(({ number }) => index.setStatus(number, 'superseded')));
      return changed.length;
    },
    async correctFact(silo: string, id: string, replacement: NewFact): Promise<FactRecord | undefined> {
      assertSilo(silo);
      const record = correct.immediate(silo, id, replacement);
      committed();
      // Two changes in one version step: the cached codes are loaded again rather than patched.
      if (record !== undefined) indexes.delete(silo);
      return record;
    },
    async unmergeFact(silo: string, id: string): Promise<FactRecord | undefined> {
      assertSilo(silo);
      const changed = unmerge.immediate(silo, id);
      committed();
      if (changed === undefined) return undefined;
      afterWrite(silo, changed.before, (index) => index.setStatus(changed.number, 'active'));
      return recordOf(sql.selectFact.get(silo, id)!);
    },
    async deleteFact(silo: string, id: string): Promise<boolean> {
      assertSilo(silo);
      const deleted = deleteFact.immediate(silo, id);
      committed();
      if (deleted === undefined) return false;
      eraseOldPageVersions(db);
      afterWrite(silo, deleted.before, (index) => index.remove(deleted.number));
      return true;
    },
    async purgeSilo(silo: string): Promise<number> {
      assertSilo(silo);
      const deleted = purge.immediate(silo);
      sql.optimizeText.run();
      committed();
      eraseOldPageVersions(db);
      indexes.delete(silo);
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
      indexes.delete(silo);
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
