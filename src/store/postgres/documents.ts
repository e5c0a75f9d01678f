import type pg from 'pg';
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
import type { Db } from './connection.js';
import { vectorLiteral } from './vectors.js';

// DocumentStorage on PostgreSQL (schema in documentsSchema.ts). Every statement names the silo.

interface LinkRow {
  fromBundle: string;
  fromPath: string;
  toBundle: string;
  toPath: string;
  label: string;
  line: number;
}

const SELECT_DOCUMENT = `
  SELECT bundle, path, title, content_hash AS "contentHash", bytes, embedding_model AS "embeddingModel", indexed_at AS "indexedAt"
  FROM documents`;

const SELECT_LINK = `
  SELECT from_bundle AS "fromBundle", from_path AS "fromPath", to_bundle AS "toBundle", to_path AS "toPath", label, line
  FROM document_links`;

const SELECT_REVISION = 'SELECT id, bundle, path, action, actor, reason, at, diff, content FROM document_revisions';

const CANDIDATE_COLUMNS = `
  d.bundle, d.path, d.title, p.ordinal, p.start_line AS "startLine", p.end_line AS "endLine", p.text, p.search_text AS "searchText"`;

function toLink(row: LinkRow): DocumentLink {
  return { from: { bundle: row.fromBundle, path: row.fromPath }, to: { bundle: row.toBundle, path: row.toPath }, label: row.label, line: row.line };
}

/** A tsquery matching any of the terms, each read as plain words (plainto_tsquery), so nothing in them is an operator. */
function anyTermQuery(terms: readonly string[], firstParam: number): string {
  return terms.map((_, i) => `plainto_tsquery('simple', $${firstParam + i})`).join(' || ');
}

async function recordRevision(client: pg.PoolClient, silo: string, address: DocumentAddress, revision: RevisionInput): Promise<number> {
  const { rows } = await client.query<{ id: number }>(
    `INSERT INTO document_revisions (silo, bundle, path, action, actor, reason, at, diff, content)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
    [silo, address.bundle, address.path, revision.action, revision.actor, revision.reason, revision.at, revision.diff, revision.content],
  );
  return rows[0]!.id;
}

export function createPostgresDocuments(db: Db): DocumentStorage {
  return {
    async getDocument(silo, { bundle, path }) {
      return (await db.read<IndexedDocument>(`${SELECT_DOCUMENT} WHERE silo = $1 AND bundle = $2 AND path = $3`, [silo, bundle, path]))[0];
    },
    async listDocuments(silo, bundle) {
      return db.read<IndexedDocument>(`${SELECT_DOCUMENT} WHERE silo = $1 AND ($2::text IS NULL OR bundle = $2) ORDER BY bundle, path`, [silo, bundle ?? null]);
    },
    async commitDocument(silo: string, update: DocumentIndexUpdate, revision?: RevisionInput): Promise<number | undefined> {
      return db.transaction(async (client) => {
        const { rows } = await client.query<{ id: number }>(
          `INSERT INTO documents (silo, bundle, path, title, content_hash, bytes, embedding_model, indexed_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (silo, bundle, path) DO UPDATE SET title = excluded.title, content_hash = excluded.content_hash,
             bytes = excluded.bytes, embedding_model = excluded.embedding_model, indexed_at = excluded.indexed_at
           RETURNING id`,
          [silo, update.bundle, update.path, update.title, update.contentHash, update.bytes, update.embeddingModel, update.indexedAt],
        );
        const documentId = rows[0]!.id;
        await client.query('DELETE FROM document_passages WHERE document_id = $1', [documentId]);
        const passages = update.passages;
        if (passages.length > 0) {
          await client.query(
            `INSERT INTO document_passages (document_id, silo, bundle, model, ordinal, start_line, end_line, text, search_text, search, embedding)
             SELECT $1, $2, $3, $4, p.ordinal, p.start_line, p.end_line, p.text, p.search_text, to_tsvector('simple', p.search_text), p.embedding::vector
             FROM unnest($5::int[], $6::int[], $7::int[], $8::text[], $9::text[], $10::text[]) AS p (ordinal, start_line, end_line, text, search_text, embedding)`,
            [
              documentId, silo, update.bundle, update.embeddingModel,
              passages.map((p) => p.ordinal), passages.map((p) => p.startLine), passages.map((p) => p.endLine),
              passages.map((p) => p.text), passages.map((p) => p.searchText), passages.map((p) => vectorLiteral(p.vector)),
            ],
          );
        }
        await client.query('DELETE FROM document_links WHERE silo = $1 AND from_bundle = $2 AND from_path = $3', [silo, update.bundle, update.path]);
        if (update.links.length > 0) {
          await client.query(
            `INSERT INTO document_links (silo, from_bundle, from_path, to_bundle, to_path, label, line)
             SELECT $1, $2, $3, l.to_bundle, l.to_path, l.label, l.line FROM unnest($4::text[], $5::text[], $6::text[], $7::int[]) WITH ORDINALITY AS l (to_bundle, to_path, label, line, n)
             ORDER BY l.n`,
            [silo, update.bundle, update.path, update.links.map((l) => l.to.bundle), update.links.map((l) => l.to.path), update.links.map((l) => l.label), update.links.map((l) => l.line)],
          );
        }
        return revision === undefined ? undefined : recordRevision(client, silo, update, revision);
      });
    },
    async removeDocument(silo, address, revision, eraseHistory = false) {
      return db.transaction(async (client) => {
        const key = [silo, address.bundle, address.path];
        // Passages go with the document (ON DELETE CASCADE); incoming links stay, now dangling.
        await client.query('DELETE FROM documents WHERE silo = $1 AND bundle = $2 AND path = $3', key);
        await client.query('DELETE FROM document_links WHERE silo = $1 AND from_bundle = $2 AND from_path = $3', key);
        if (eraseHistory) await client.query('DELETE FROM document_revisions WHERE silo = $1 AND bundle = $2 AND path = $3', key);
        return revision === undefined ? undefined : recordRevision(client, silo, address, revision);
      });
    },
    async embeddingModels(silo) {
      const rows = await db.read<{ model: string }>('SELECT DISTINCT embedding_model AS model FROM documents WHERE silo = $1 ORDER BY model', [silo]);
      return rows.map((row) => row.model);
    },
    async searchVectors(silo, { vector, embeddingModel, limit, bundle }: VectorQuery): Promise<VectorCandidate[]> {
      // An exact scan of the silo's passages of that model (and dimension: <=> refuses to compare others).
      const rows = await db.read<PassageCandidate & { distance: number }>(
        `SELECT ${CANDIDATE_COLUMNS}, p.embedding <=> $3::vector AS distance
         FROM document_passages AS p JOIN documents AS d ON d.id = p.document_id
         WHERE p.silo = $1 AND p.model = $2 AND vector_dims(p.embedding) = $4 AND ($5::text IS NULL OR p.bundle = $5)
         ORDER BY distance, p.id LIMIT $6`,
        [silo, embeddingModel, vectorLiteral(vector), vector.length, bundle ?? null, limit],
      );
      return rows.map(({ distance, ...candidate }) => ({ ...candidate, similarity: 1 - distance }));
    },
    async searchText(silo, { terms, limit, bundle }: TextQuery): Promise<PassageCandidate[]> {
      if (terms.length === 0) return [];
      return db.read<PassageCandidate>(
        `SELECT ${CANDIDATE_COLUMNS}
         FROM document_passages AS p JOIN documents AS d ON d.id = p.document_id, (SELECT ${anyTermQuery(terms, 4)} AS query) AS q
         WHERE p.silo = $1 AND ($2::text IS NULL OR p.bundle = $2) AND p.search @@ q.query
         ORDER BY ts_rank(p.search, q.query) DESC, p.id LIMIT $3`,
        [silo, bundle ?? null, limit, ...terms],
      );
    },
    async linksFrom(silo, { bundle, path }) {
      return (await db.read<LinkRow>(`${SELECT_LINK} WHERE silo = $1 AND from_bundle = $2 AND from_path = $3 ORDER BY line, id`, [silo, bundle, path])).map(toLink);
    },
    async linksTo(silo, { bundle, path }) {
      return (await db.read<LinkRow>(`${SELECT_LINK} WHERE silo = $1 AND to_bundle = $2 AND to_path = $3 ORDER BY from_bundle, from_path, line, id`, [silo, bundle, path])).map(toLink);
    },
    async listLinks(silo, bundle) {
      return (
        await db.read<LinkRow>(`${SELECT_LINK} WHERE silo = $1 AND ($2::text IS NULL OR from_bundle = $2) ORDER BY from_bundle, from_path, line, id`, [silo, bundle ?? null])
      ).map(toLink);
    },
    async listRevisions(silo, { bundle, path }, limit) {
      return db.read<RevisionRecord>(`${SELECT_REVISION} WHERE silo = $1 AND bundle = $2 AND path = $3 ORDER BY id DESC LIMIT $4`, [silo, bundle, path, limit ?? null]);
    },
    async getRevision(silo, id) {
      return (await db.read<RevisionRecord>(`${SELECT_REVISION} WHERE silo = $1 AND id = $2`, [silo, id]))[0];
    },
    async readContent(silo, { bundle, path }) {
      const [row] = await db.read<{ content: string }>('SELECT content FROM document_contents WHERE silo = $1 AND bundle = $2 AND path = $3', [silo, bundle, path]);
      return row?.content;
    },
    async writeContent(silo, { bundle, path }, content) {
      await db.write(
        `INSERT INTO document_contents (silo, bundle, path, content, updated_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (silo, bundle, path) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at`,
        [silo, bundle, path, content, Date.now()],
      );
    },
    async deleteContent(silo, { bundle, path }) {
      return ((await db.write('DELETE FROM document_contents WHERE silo = $1 AND bundle = $2 AND path = $3', [silo, bundle, path])).rowCount ?? 0) > 0;
    },
    async listContent(silo, bundle) {
      return db.read<DocumentAddress>('SELECT bundle, path FROM document_contents WHERE silo = $1 AND ($2::text IS NULL OR bundle = $2) ORDER BY bundle, path', [silo, bundle ?? null]);
    },
    async listSilos() {
      const rows = await db.read<{ silo: string }>(
        'SELECT silo FROM documents UNION SELECT silo FROM document_revisions UNION SELECT silo FROM document_contents ORDER BY silo',
      );
      return rows.map((row) => row.silo);
    },
    async purgeSilo(silo) {
      await db.transaction(async (client) => {
        for (const table of ['document_passages', 'documents', 'document_links', 'document_revisions', 'document_contents']) {
          await client.query(`DELETE FROM ${table} WHERE silo = $1`, [silo]);
        }
      });
    },
  };
}
