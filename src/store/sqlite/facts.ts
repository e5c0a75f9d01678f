import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { assertSilo } from '../../core/silo.js';
import { binaryCode } from './binaryCodes.js';
import { eraseOldPageVersions, NO_LIMIT } from './connection.js';
import type { IndexedCode } from './factIndex.js';
import { type FactRecord, type FactStatus, type FactStore, incompleteReembedding, type ListFactsOptions, type NewFact, type ScoredFact, type SiloSummary, type VectorQuery } from '../facts.js';
import { blobOf, checkDimensions, COLUMNS, moveLegacyVectors, recordOf, type FactRow } from './factRows.js';
import { createFactSearch } from './factSearch.js';

// Facts on SQLite: rows in `facts`, float vectors in `fact_embeddings`, their binary codes in
// `fact_codes` (and in memory, see factIndex.ts), words in the contentless FTS5 table `fact_text`;
// all share the fact's row number. A vector search scans the silo's codes by Hamming distance,
// then ranks the nearest few hundred by cosine similarity on their float vectors.

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
    selectFact: db.prepare<[silo: string, id: string], FactRow>(`SELECT ${COLUMNS} FROM facts WHERE silo = ? AND id = ?`),
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
  const { searchVectors, searchText, silo: siloRow, siloModelFor, afterWrite, forget } = createFactSearch(db);

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
    const before = siloRow(silo)!.version;
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
    const before = siloRow(silo)!.version;
    sql.bumpVersion.run(silo);
    sql.setCodeStatus.run('active', silo, changed.number);
    return { number: changed.number, before };
  });

  const deleteFact = db.transaction((silo: string, id: string) => {
    const deleted = sql.deleteFact.get(silo, id);
    if (deleted === undefined) return undefined;
    const before = siloRow(silo)!.version;
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
    if (siloRow(silo) === undefined) return;
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
      if (record !== undefined) forget(silo);
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
      forget(silo);
      return deleted;
    },
    async listSilos(): Promise<SiloSummary[]> {
      return sql.listSilos.all();
    },
    async siloEmbeddingModel(silo: string): Promise<string | undefined> {
      assertSilo(silo);
      return siloRow(silo)?.embeddingModel;
    },
    async replaceEmbeddings(silo: string, embeddingModel: string, embeddings: ReadonlyMap<string, Float32Array>): Promise<void> {
      assertSilo(silo);
      replaceEmbeddings.immediate(silo, embeddingModel, embeddings);
      committed();
      forget(silo);
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
