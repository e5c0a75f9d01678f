import type Database from 'better-sqlite3';
import { codeBytes } from './binaryCodes.js';
import { cosine } from '../vectors.js';
import { createSiloIndex, type IndexedCode, type SiloIndex } from './factIndex.js';
import { checkSiloVectors, type FactRecord, type FactTag, rankingWords, type ScoredFact, textQueries, type VectorQuery } from '../facts.js';
import { blobOf, CODE_PAGE, COLUMNS, MAX_INDEXED_FACTS, RERANK_FACTOR, RERANK_MIN, ftsQuery, recordOf, vectorOf, type CodePage, type FactRow, type SiloRow } from './factRows.js';

// Searching the facts on SQLite: by vector (the silo's binary codes, kept in memory between
// searches, then cosine on the nearest few hundred) and by text (FTS5).

export interface FactSearch {
  searchVectors(silo: string, query: VectorQuery): ScoredFact[];
  searchText(silo: string, text: string, limit: number): ScoredFact[];
  /** The silo's row; undefined for a silo with no facts. */
  silo(silo: string): SiloRow | undefined;
  /** The silo's row, its model and dimension checked against a query's or a new fact's. */
  siloModelFor(silo: string, model: string, dimensions: number): SiloRow | undefined;
  /**
   * After a committed write that moved the silo from version `before` to `before + 1`: a cached
   * index that was at `before` takes the change, one at another version (it missed another
   * process's write) is dropped and loaded again by the next search.
   */
  afterWrite(silo: string, before: number | undefined, change: (index: SiloIndex) => void): void;
  /** Drops the silo's cached codes: the next search loads them again. */
  forget(silo: string): void;
}

function prepareStatements(db: Database.Database) {
  return {
    selectSilo: db.prepare<[silo: string], SiloRow>('SELECT embedding_model AS embeddingModel, dimensions, version FROM fact_silos WHERE silo = ?'),
    selectCodePage: db.prepare<[silo: string, after: number, limit: number], CodePage>(
      `SELECT count(*) AS count, max(number) AS last, group_concat(number) AS numbers, group_concat(tag) AS tags,
         group_concat(status = 'active', '') AS active, group_concat(hex(code), '') AS codes
       FROM (SELECT number, tag, status, code FROM fact_codes WHERE silo = ? AND number > ? ORDER BY number LIMIT ?)`,
    ),
    // sqlite-vec's cosine, in C and in single precision: no 2 KB Buffer per candidate crosses into
    // JavaScript. A zero vector's cosine is NULL in sqlite-vec, 0 in cosine(). Rows come as arrays
    // (400 objects cost 0.1 ms at 100k facts) and are ordered in JavaScript: ordered in SQL, the top
    // was 0.2 ms faster at 100k facts, but the temporary B-tree added 40-70 us (+30%) to each of
    // remember's searches of a small silo.
    roughScores: db
      .prepare<[query: Buffer, numbers: string], [number: number, score: number]>(
        'SELECT number, coalesce(1 - vec_distance_cosine(embedding, ?), 0) FROM fact_embeddings WHERE number IN (SELECT value FROM json_each(?))',
      )
      .raw(),
    selectWithEmbeddings: db.prepare<[silo: string, numbers: string], FactRow & { embedding: Buffer }>(
      `SELECT ${COLUMNS}, embedding FROM facts JOIN fact_embeddings USING (number) WHERE +silo = ? AND number IN (SELECT value FROM json_each(?))`,
    ),
    // +silo keeps the planner on the primary key: through facts_by_silo it would walk the whole silo.
    selectNumbers: db.prepare<[silo: string, numbers: string], FactRow>(
      `SELECT ${COLUMNS} FROM facts WHERE +silo = ? AND number IN (SELECT value FROM json_each(?))`,
    ),
    wordFacts: db.prepare<[words: string], { word: string; facts: number }>(
      'SELECT term AS word, doc AS facts FROM fact_text_vocab WHERE term IN (SELECT value FROM json_each(?))',
    ),
    // Ranks in FTS5 first, then reads only the matches' numbers and silos.
    searchText: db.prepare<[query: string, silo: string, limit: number], { number: number; score: number }>(
      `SELECT number, score
       FROM (SELECT rowid AS hit, -bm25(fact_text, 1.0, 2.0) AS score FROM fact_text WHERE fact_text MATCH ?)
       JOIN facts ON number = hit
       WHERE +silo = ? ORDER BY score DESC LIMIT ?`,
    ),
  };
}

export function createFactSearch(db: Database.Database): FactSearch {
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

  const factsByNumber = (silo: string, numbers: readonly number[]): Map<number, FactRecord> => {
    const rows = sql.selectNumbers.all(silo, JSON.stringify(numbers));
    return new Map(rows.map((row) => [row.number, recordOf(row)]));
  };

  // One read transaction, so the codes, vectors and rows all come from one state of the file.
  const searchVectors = db.transaction((silo: string, query: VectorQuery): ScoredFact[] => {
    const row = siloModelFor(silo, query.embeddingModel, query.embedding.length);
    if (row === undefined) return [];
    const index = indexFor(silo, row);
    const candidates = index.nearest(query.embedding, Math.max(RERANK_MIN, query.limit * RERANK_FACTOR), query);
    // The top is picked in single precision, then scored and ordered in double precision, as on
    // PostgreSQL (pgvector orders in single precision): only facts within ~1e-7 of the cut can be
    // picked otherwise than by a double-precision re-rank of every candidate. At 100k facts, 400
    // candidates scored in JavaScript took 3.0 ms CPU a search, in sqlite-vec 1.5 ms.
    const nearest = sql.roughScores
      .all(blobOf(query.embedding), JSON.stringify(candidates))
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, query.limit);
    return sql.selectWithEmbeddings
      .all(silo, JSON.stringify(nearest.map(([number]) => number)))
      .map((row) => ({ row, score: cosine(query.embedding, vectorOf(row.embedding)) }))
      .sort((a, b) => b.score - a.score || a.row.number - b.row.number)
      .map(({ row, score }) => ({ fact: recordOf(row), score }));
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
    searchVectors: (silo, query) => searchVectors(silo, query),
    searchText: (silo, text, limit) => searchText(silo, text, limit),
    silo: (silo) => sql.selectSilo.get(silo),
    siloModelFor,
    afterWrite,
    forget: (silo) => indexes.delete(silo),
  };
}
