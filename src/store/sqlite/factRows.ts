import type Database from 'better-sqlite3';
import { binaryCode } from './binaryCodes.js';
import { factRecordOf, type FactRecord, type FactRow as StoredFactRow, type TextQuery } from '../facts.js';

// The rows of facts on SQLite (facts.ts) and what turns them into records and back, apart from
// the store's logic, so that each file reads in one sitting.

export type FactRow = StoredFactRow<string>;

export interface SiloRow {
  embeddingModel: string;
  dimensions: number;
  version: number;
}

/** A page of a silo's codes, each column concatenated: its rows in one order, whichever it is. */
export interface CodePage {
  count: number;
  last: number | null;
  /** Comma-separated. */
  numbers: string | null;
  /** Comma-separated. */
  tags: string | null;
  /** One '1' (active) or '0' per fact. */
  active: string | null;
  /** Hex, codeBytes per fact. */
  codes: string | null;
}

export const COLUMNS = `number, id, silo, text, tag, date, source, keys, status, superseded_by AS supersededBy, restates, subject, attribute, session_id AS sessionId,
  turn_id AS turnId, embedding_model AS embeddingModel, created_at AS createdAt, updated_at AS updatedAt`;

// Real embedders use 256 to 3072 dimensions; a Hamming distance must fit 16 bits.
const MAX_DIMENSIONS = 8192;
// How many of the codes best for the query a vector search re-ranks exactly: RERANK_FACTOR times the
// limit, and at least RERANK_MIN (factIndex.ts measures what they hold). Each re-ranked vector is
// a row read and a cosine in sqlite-vec (~3.5 us): at 100k facts, 400 of them took 1.9 ms.
export const RERANK_MIN = 100;
export const RERANK_FACTOR = 5;
// Codes of silos held in memory (about 100 bytes a fact); the least recently searched go first.
export const MAX_INDEXED_FACTS = 1_000_000;
// Codes load in pages of concatenated columns: 100k facts took 190 ms a row at a time, 37 ms so.
export const CODE_PAGE = 20_000;
// A legacy vec0 table of one dimension (before migration 7).
const LEGACY_VECTOR_TABLE = /^fact_vectors_\d+$/;

export function recordOf(row: FactRow): FactRecord {
  return factRecordOf(row, JSON.parse(row.keys) as string[]);
}

export function checkDimensions(dimensions: number): void {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > MAX_DIMENSIONS) {
    throw new Error(`cannot store a ${dimensions}-dimensional vector: embeddings must have 1 to ${MAX_DIMENSIONS} dimensions`);
  }
}

export function blobOf(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

export function vectorOf(blob: Buffer): Float32Array {
  // A Float32Array over the blob needs a 4-byte aligned offset; a Buffer has none promised.
  return blob.byteOffset % 4 === 0 ? new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4) : new Float32Array(new Uint8Array(blob).buffer);
}

/** FTS5 syntax of a full-text query, each word quoted so FTS5 operators in user text are read as words. */
export function ftsQuery(query: TextQuery): string {
  return query.map((words) => (words.length === 1 ? `"${words[0]}"` : `(${words.map((word) => `"${word}"`).join(' AND ')})`)).join(' OR ');
}

/**
 * Moves vectors out of the vec0 tables facts used before migration 7 (one per dimension, which
 * SQL cannot name) into fact_embeddings and fact_codes, and drops those tables. A no-op once done.
 */
export function moveLegacyVectors(db: Database.Database): void {
  const legacyTables = (): string[] =>
    db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'")
      .all()
      .map((row) => row.name)
      .filter((name) => LEGACY_VECTOR_TABLE.test(name));
  if (legacyTables().length === 0) return;
  db.transaction(() => {
    // Looked up again under the write lock: another process may have moved them meanwhile.
    const insertCode = db.prepare('INSERT INTO fact_codes (silo, number, tag, status, code) VALUES (?, ?, ?, ?, ?)');
    const insertEmbedding = db.prepare('INSERT INTO fact_embeddings (number, embedding) VALUES (?, ?)');
    const silos = db.prepare<[], { silo: string }>('SELECT silo FROM fact_silos').all();
    for (const table of legacyTables()) {
      const rows = db.prepare<[silo: string], { number: number; tag: string; status: string; embedding: Buffer }>(
        `SELECT rowid AS number, tag, status, embedding FROM ${table} WHERE silo = ?`,
      );
      // A silo at a time (a vec0 partition), so memory holds one silo's vectors, not the file's.
      for (const { silo } of silos) {
        for (const row of rows.all(silo)) {
          insertCode.run(silo, row.number, row.tag, row.status, binaryCode(vectorOf(row.embedding)));
          insertEmbedding.run(row.number, row.embedding);
        }
      }
      db.exec(`DROP TABLE ${table}`);
    }
  }).immediate();
}
