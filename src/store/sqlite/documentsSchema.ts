// The migration that adds markdown document bundles (appended to MIGRATIONS in schema.ts; never
// edit it once shipped, append another).
//
// Vectors are float32 BLOBs compared with sqlite-vec's vec_distance_cosine rather than a vec0
// table: vec0 fixes the dimension when the table is created, while the embedding model (512 dims
// locally, 768 or 1536 from providers) is chosen per syndicate. A silo's passages number in the
// thousands, where an exact scan is cheap if the scan reads vectors only: in their own narrow table
// a 512-dim row fits its page, while next to the passage text it spilled into overflow pages (a
// 7,000-passage scan took 177 ms there against 27 ms here, on a loaded machine).
export const DOCUMENTS_MIGRATION = `
  CREATE TABLE documents (
    id              INTEGER PRIMARY KEY,
    silo            TEXT NOT NULL,
    bundle          TEXT NOT NULL,
    path            TEXT NOT NULL,
    title           TEXT NOT NULL,
    content_hash    TEXT NOT NULL,
    bytes           INTEGER NOT NULL,
    embedding_model TEXT NOT NULL,
    indexed_at      INTEGER NOT NULL,
    UNIQUE (silo, bundle, path)
  );
  CREATE TABLE document_passages (
    id          INTEGER PRIMARY KEY,
    document_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    silo        TEXT NOT NULL,
    ordinal     INTEGER NOT NULL,
    start_line  INTEGER NOT NULL,
    end_line    INTEGER NOT NULL,
    text        TEXT NOT NULL,
    search_text TEXT NOT NULL
  );
  CREATE INDEX document_passages_by_silo ON document_passages (silo);
  CREATE INDEX document_passages_by_document ON document_passages (document_id, ordinal);
  -- passage_id = document_passages.id; silo, bundle and model copied so a scan needs no join.
  CREATE TABLE document_vectors (
    passage_id INTEGER PRIMARY KEY,
    silo       TEXT NOT NULL,
    bundle     TEXT NOT NULL,
    model      TEXT NOT NULL,
    embedding  BLOB NOT NULL
  );
  CREATE INDEX document_vectors_by_silo ON document_vectors (silo);
  -- Contentless (the text lives in document_passages), rowid = document_passages.id.
  CREATE VIRTUAL TABLE document_passages_fts USING fts5 (
    search_text, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2'
  );
  CREATE TABLE document_links (
    id          INTEGER PRIMARY KEY,
    silo        TEXT NOT NULL,
    from_bundle TEXT NOT NULL,
    from_path   TEXT NOT NULL,
    to_bundle   TEXT NOT NULL,
    to_path     TEXT NOT NULL,
    label       TEXT NOT NULL,
    line        INTEGER NOT NULL
  );
  CREATE INDEX document_links_from ON document_links (silo, from_bundle, from_path);
  CREATE INDEX document_links_to ON document_links (silo, to_bundle, to_path);
  -- content is the document after the change (NULL after a delete), so any revision can be restored.
  CREATE TABLE document_revisions (
    id      INTEGER PRIMARY KEY,
    silo    TEXT NOT NULL,
    bundle  TEXT NOT NULL,
    path    TEXT NOT NULL,
    action  TEXT NOT NULL,
    actor   TEXT NOT NULL,
    reason  TEXT NOT NULL,
    at      INTEGER NOT NULL,
    diff    TEXT NOT NULL,
    content TEXT
  );
  CREATE INDEX document_revisions_by_document ON document_revisions (silo, bundle, path, id);
  -- Content of database-backed documents (several machines sharing one store).
  CREATE TABLE document_contents (
    silo       TEXT NOT NULL,
    bundle     TEXT NOT NULL,
    path       TEXT NOT NULL,
    content    TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (silo, bundle, path)
  ) WITHOUT ROWID;
`;
