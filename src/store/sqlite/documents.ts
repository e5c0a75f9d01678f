import type Database from 'better-sqlite3';
import { eraseOldPageVersions, NO_LIMIT } from './connection.js';
import type {
  DocumentAddress,
  DocumentIndexUpdate,
  DocumentLink,
  DocumentStorage,
  IndexedDocument,
  PassageCandidate,
  RevisionInput,
  RevisionRecord,
  TextQuery,
  VectorCandidate,
  VectorQuery,
} from '../documents.js';

// SQLite implementation of DocumentStorage (schema in documentsSchema.ts).

interface LinkRow {
  fromBundle: string;
  fromPath: string;
  toBundle: string;
  toPath: string;
  label: string;
  line: number;
}

interface CandidateRow extends PassageCandidate {
  distance?: number;
}

const SELECT_DOCUMENT = `
  SELECT bundle, path, title, content_hash AS contentHash, bytes, embedding_model AS embeddingModel, indexed_at AS indexedAt
  FROM documents`;

const SELECT_LINK = `
  SELECT from_bundle AS fromBundle, from_path AS fromPath, to_bundle AS toBundle, to_path AS toPath, label, line
  FROM document_links`;

const SELECT_REVISION = `
  SELECT id, bundle, path, action, actor, reason, at, diff, content FROM document_revisions`;

const CANDIDATE_COLUMNS = `
  d.bundle, d.path, d.title, p.ordinal, p.start_line AS startLine, p.end_line AS endLine, p.text, p.search_text AS searchText`;

// A bundle filter that is off when its parameter is NULL keeps one statement per query shape.
const BUNDLE_FILTER = '(@bundle IS NULL OR d.bundle = @bundle)';

function prepareStatements(db: Database.Database) {
  return {
    selectDocument: db.prepare<[silo: string, bundle: string, path: string], IndexedDocument>(
      `${SELECT_DOCUMENT} WHERE silo = ? AND bundle = ? AND path = ?`,
    ),
    listDocuments: db.prepare<{ silo: string; bundle: string | null }, IndexedDocument>(
      `${SELECT_DOCUMENT} AS d WHERE silo = @silo AND ${BUNDLE_FILTER} ORDER BY bundle, path`,
    ),
    documentId: db.prepare<[silo: string, bundle: string, path: string], { id: number }>(
      'SELECT id FROM documents WHERE silo = ? AND bundle = ? AND path = ?',
    ),
    upsertDocument: db.prepare<[string, string, string, string, string, number, string, number], { id: number }>(
      `INSERT INTO documents (silo, bundle, path, title, content_hash, bytes, embedding_model, indexed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (silo, bundle, path) DO UPDATE SET title = excluded.title, content_hash = excluded.content_hash,
         bytes = excluded.bytes, embedding_model = excluded.embedding_model, indexed_at = excluded.indexed_at
       RETURNING id`,
    ),
    deleteDocument: db.prepare<[id: number]>('DELETE FROM documents WHERE id = ?'),
    deletePassageText: db.prepare<[documentId: number]>(
      'DELETE FROM document_passages_fts WHERE rowid IN (SELECT id FROM document_passages WHERE document_id = ?)',
    ),
    deletePassages: db.prepare<[documentId: number]>('DELETE FROM document_passages WHERE document_id = ?'),
    deletePassageVectors: db.prepare<[documentId: number]>(
      'DELETE FROM document_vectors WHERE passage_id IN (SELECT id FROM document_passages WHERE document_id = ?)',
    ),
    insertPassage: db.prepare<[number, string, number, number, number, string, string], { id: number }>(
      `INSERT INTO document_passages (document_id, silo, ordinal, start_line, end_line, text, search_text)
       VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    ),
    insertVector: db.prepare<[passageId: number, silo: string, bundle: string, model: string, embedding: Buffer]>(
      'INSERT INTO document_vectors (passage_id, silo, bundle, model, embedding) VALUES (?, ?, ?, ?, ?)',
    ),
    insertPassageText: db.prepare<[rowid: number, searchText: string]>('INSERT INTO document_passages_fts (rowid, search_text) VALUES (?, ?)'),
    deleteLinksFrom: db.prepare<[silo: string, bundle: string, path: string]>(
      'DELETE FROM document_links WHERE silo = ? AND from_bundle = ? AND from_path = ?',
    ),
    insertLink: db.prepare<[string, string, string, string, string, string, number]>(
      `INSERT INTO document_links (silo, from_bundle, from_path, to_bundle, to_path, label, line) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    insertRevision: db.prepare<[string, string, string, string, string, string, number, string, string | null], { id: number }>(
      `INSERT INTO document_revisions (silo, bundle, path, action, actor, reason, at, diff, content)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    ),
    embeddingModels: db.prepare<[silo: string], { model: string }>(
      'SELECT DISTINCT embedding_model AS model FROM documents WHERE silo = ? ORDER BY model',
    ),
    searchVectors: db.prepare<{ silo: string; bundle: string | null; model: string; vector: Buffer; limit: number }, CandidateRow>(
      `SELECT ${CANDIDATE_COLUMNS}, top.distance
       FROM (SELECT passage_id, vec_distance_cosine(embedding, @vector) AS distance FROM document_vectors
             WHERE silo = @silo AND model = @model AND (@bundle IS NULL OR bundle = @bundle)
             ORDER BY distance LIMIT @limit) AS top
       JOIN document_passages AS p ON p.id = top.passage_id JOIN documents AS d ON d.id = p.document_id
       ORDER BY top.distance`,
    ),
    searchText: db.prepare<{ silo: string; bundle: string | null; match: string; limit: number }, CandidateRow>(
      `SELECT ${CANDIDATE_COLUMNS}
       FROM document_passages_fts AS f
       JOIN document_passages AS p ON p.id = f.rowid JOIN documents AS d ON d.id = p.document_id
       WHERE document_passages_fts MATCH @match AND p.silo = @silo AND ${BUNDLE_FILTER}
       ORDER BY f.rank LIMIT @limit`,
    ),
    linksFrom: db.prepare<[silo: string, bundle: string, path: string], LinkRow>(
      `${SELECT_LINK} WHERE silo = ? AND from_bundle = ? AND from_path = ? ORDER BY line, id`,
    ),
    linksTo: db.prepare<[silo: string, bundle: string, path: string], LinkRow>(
      `${SELECT_LINK} WHERE silo = ? AND to_bundle = ? AND to_path = ? ORDER BY from_bundle, from_path, line`,
    ),
    listLinks: db.prepare<{ silo: string; bundle: string | null }, LinkRow>(
      `${SELECT_LINK} WHERE silo = @silo AND (@bundle IS NULL OR from_bundle = @bundle) ORDER BY from_bundle, from_path, line, id`,
    ),
    listRevisions: db.prepare<[silo: string, bundle: string, path: string, limit: number], RevisionRecord>(
      `${SELECT_REVISION} WHERE silo = ? AND bundle = ? AND path = ? ORDER BY id DESC LIMIT ?`,
    ),
    deleteRevisions: db.prepare<[silo: string, bundle: string, path: string]>(
      'DELETE FROM document_revisions WHERE silo = ? AND bundle = ? AND path = ?',
    ),
    selectRevision: db.prepare<[silo: string, id: number], RevisionRecord>(`${SELECT_REVISION} WHERE silo = ? AND id = ?`),
    readContent: db.prepare<[silo: string, bundle: string, path: string], { content: string }>(
      'SELECT content FROM document_contents WHERE silo = ? AND bundle = ? AND path = ?',
    ),
    writeContent: db.prepare<[silo: string, bundle: string, path: string, content: string, updatedAt: number]>(
      `INSERT INTO document_contents (silo, bundle, path, content, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (silo, bundle, path) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at`,
    ),
    deleteContent: db.prepare<[silo: string, bundle: string, path: string]>(
      'DELETE FROM document_contents WHERE silo = ? AND bundle = ? AND path = ?',
    ),
    listContent: db.prepare<{ silo: string; bundle: string | null }, DocumentAddress>(
      'SELECT bundle, path FROM document_contents WHERE silo = @silo AND (@bundle IS NULL OR bundle = @bundle) ORDER BY bundle, path',
    ),
    listSilos: db.prepare<[], { silo: string }>(
      `SELECT silo FROM documents UNION SELECT silo FROM document_revisions UNION SELECT silo FROM document_contents ORDER BY silo`,
    ),
    purgePassageText: db.prepare<[silo: string]>(
      'DELETE FROM document_passages_fts WHERE rowid IN (SELECT id FROM document_passages WHERE silo = ?)',
    ),
    purgePassages: db.prepare<[silo: string]>('DELETE FROM document_passages WHERE silo = ?'),
    purgeVectors: db.prepare<[silo: string]>('DELETE FROM document_vectors WHERE silo = ?'),
    purgeDocuments: db.prepare<[silo: string]>('DELETE FROM documents WHERE silo = ?'),
    purgeLinks: db.prepare<[silo: string]>('DELETE FROM document_links WHERE silo = ?'),
    purgeRevisions: db.prepare<[silo: string]>('DELETE FROM document_revisions WHERE silo = ?'),
    purgeContents: db.prepare<[silo: string]>('DELETE FROM document_contents WHERE silo = ?'),
  };
}

function vectorBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

/** FTS5 query matching any of the terms, each quoted so no word is read as an operator. */
function anyTermQuery(terms: readonly string[]): string {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(' OR ');
}

function toLink(row: LinkRow): DocumentLink {
  return {
    from: { bundle: row.fromBundle, path: row.fromPath },
    to: { bundle: row.toBundle, path: row.toPath },
    label: row.label,
    line: row.line,
  };
}

function toCandidate({ distance: _distance, ...candidate }: CandidateRow): PassageCandidate {
  return candidate;
}


/** `committed` is called after every write transaction (the store's WAL checkpointer counts them). */
export function createSqliteDocuments(db: Database.Database, committed: () => void): DocumentStorage {
  const sql = prepareStatements(db);

  const recordRevision = (silo: string, address: DocumentAddress, revision: RevisionInput): number =>
    sql.insertRevision.get(
      silo, address.bundle, address.path, revision.action, revision.actor, revision.reason, revision.at, revision.diff, revision.content,
    )!.id;

  const dropPassages = (documentId: number): void => {
    sql.deletePassageText.run(documentId);
    sql.deletePassageVectors.run(documentId);
    sql.deletePassages.run(documentId);
  };

  const commitDocument = db.transaction((silo: string, update: DocumentIndexUpdate, revision?: RevisionInput): number | undefined => {
    const { id } = sql.upsertDocument.get(
      silo, update.bundle, update.path, update.title, update.contentHash, update.bytes, update.embeddingModel, update.indexedAt,
    )!;
    dropPassages(id);
    for (const passage of update.passages) {
      const row = sql.insertPassage.get(id, silo, passage.ordinal, passage.startLine, passage.endLine, passage.text, passage.searchText)!;
      sql.insertVector.run(row.id, silo, update.bundle, update.embeddingModel, vectorBlob(passage.vector));
      sql.insertPassageText.run(row.id, passage.searchText);
    }
    sql.deleteLinksFrom.run(silo, update.bundle, update.path);
    for (const link of update.links) {
      sql.insertLink.run(silo, update.bundle, update.path, link.to.bundle, link.to.path, link.label, link.line);
    }
    return revision === undefined ? undefined : recordRevision(silo, update, revision);
  });

  const removeDocument = db.transaction((silo: string, address: DocumentAddress, revision?: RevisionInput, eraseHistory = false): number | undefined => {
    const row = sql.documentId.get(silo, address.bundle, address.path);
    if (row !== undefined) {
      dropPassages(row.id);
      sql.deleteDocument.run(row.id);
    }
    sql.deleteLinksFrom.run(silo, address.bundle, address.path);
    if (eraseHistory) sql.deleteRevisions.run(silo, address.bundle, address.path);
    return revision === undefined ? undefined : recordRevision(silo, address, revision);
  });

  const purgeSilo = db.transaction((silo: string): void => {
    sql.purgePassageText.run(silo);
    sql.purgeVectors.run(silo);
    sql.purgePassages.run(silo);
    sql.purgeDocuments.run(silo);
    sql.purgeLinks.run(silo);
    sql.purgeRevisions.run(silo);
    sql.purgeContents.run(silo);
  });

  const written = <T>(result: T): T => {
    committed();
    return result;
  };

  return {
    async getDocument(silo, { bundle, path }) {
      return sql.selectDocument.get(silo, bundle, path);
    },
    async listDocuments(silo, bundle) {
      return sql.listDocuments.all({ silo, bundle: bundle ?? null });
    },
    async commitDocument(silo, update, revision) {
      return written(commitDocument.immediate(silo, update, revision));
    },
    async removeDocument(silo, address, revision, eraseHistory) {
      return written(removeDocument.immediate(silo, address, revision, eraseHistory));
    },
    async embeddingModels(silo) {
      return sql.embeddingModels.all(silo).map((row) => row.model);
    },
    async searchVectors(silo, { vector, embeddingModel, limit, bundle }: VectorQuery): Promise<VectorCandidate[]> {
      const rows = sql.searchVectors.all({ silo, bundle: bundle ?? null, model: embeddingModel, vector: vectorBlob(vector), limit });
      return rows.map((row) => ({ ...toCandidate(row), similarity: 1 - (row.distance ?? 1) }));
    },
    async searchText(silo, { terms, limit, bundle }: TextQuery): Promise<PassageCandidate[]> {
      if (terms.length === 0) return [];
      return sql.searchText.all({ silo, bundle: bundle ?? null, match: anyTermQuery(terms), limit }).map(toCandidate);
    },
    async linksFrom(silo, { bundle, path }) {
      return sql.linksFrom.all(silo, bundle, path).map(toLink);
    },
    async linksTo(silo, { bundle, path }) {
      return sql.linksTo.all(silo, bundle, path).map(toLink);
    },
    async listLinks(silo, bundle) {
      return sql.listLinks.all({ silo, bundle: bundle ?? null }).map(toLink);
    },
    async listRevisions(silo, { bundle, path }, limit = NO_LIMIT) {
      return sql.listRevisions.all(silo, bundle, path, limit);
    },
    async getRevision(silo, id) {
      return sql.selectRevision.get(silo, id);
    },
    async readContent(silo, { bundle, path }) {
      return sql.readContent.get(silo, bundle, path)?.content;
    },
    async writeContent(silo, { bundle, path }, content) {
      sql.writeContent.run(silo, bundle, path, content, Date.now());
      committed();
    },
    async deleteContent(silo, { bundle, path }) {
      return written(sql.deleteContent.run(silo, bundle, path).changes > 0);
    },
    async listContent(silo, bundle) {
      return sql.listContent.all({ silo, bundle: bundle ?? null });
    },
    async listSilos() {
      return sql.listSilos.all().map((row) => row.silo);
    },
    async purgeSilo(silo) {
      written(purgeSilo.immediate(silo));
      eraseOldPageVersions(db);
    },
  };
}
