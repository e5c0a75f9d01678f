// The migration that adds markdown document bundles (MIGRATIONS in schema.ts; never edit it once
// shipped). A silo's passages number in the thousands, so a vector search scans the silo's passages
// exactly (no HNSW index: the model, and so the dimension, varies per syndicate).
export const DOCUMENTS_MIGRATION = `
  CREATE TABLE documents (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    silo            text COLLATE "C" NOT NULL,
    bundle          text COLLATE "C" NOT NULL,
    path            text COLLATE "C" NOT NULL,
    title           text NOT NULL,
    content_hash    text NOT NULL,
    bytes           bigint NOT NULL,
    embedding_model text NOT NULL,
    indexed_at      bigint NOT NULL,
    UNIQUE (silo, bundle, path)
  );
  -- silo, bundle and model copied from the document so a search reads one table.
  CREATE TABLE document_passages (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    document_id bigint NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    silo        text COLLATE "C" NOT NULL,
    bundle      text COLLATE "C" NOT NULL,
    model       text NOT NULL,
    ordinal     integer NOT NULL,
    start_line  integer NOT NULL,
    end_line    integer NOT NULL,
    text        text NOT NULL,
    search_text text NOT NULL,
    search      tsvector NOT NULL,
    embedding   vector NOT NULL
  );
  CREATE INDEX document_passages_by_silo ON document_passages (silo, model);
  CREATE INDEX document_passages_by_document ON document_passages (document_id, ordinal);
  CREATE INDEX document_passages_search ON document_passages USING gin (search);
  CREATE TABLE document_links (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    silo        text COLLATE "C" NOT NULL,
    from_bundle text COLLATE "C" NOT NULL,
    from_path   text COLLATE "C" NOT NULL,
    to_bundle   text COLLATE "C" NOT NULL,
    to_path     text COLLATE "C" NOT NULL,
    label       text NOT NULL,
    line        integer NOT NULL
  );
  CREATE INDEX document_links_from ON document_links (silo, from_bundle, from_path);
  CREATE INDEX document_links_to ON document_links (silo, to_bundle, to_path);
  -- content is the document after the change (NULL after a delete), so any revision can be restored.
  CREATE TABLE document_revisions (
    id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    silo    text COLLATE "C" NOT NULL,
    bundle  text COLLATE "C" NOT NULL,
    path    text COLLATE "C" NOT NULL,
    action  text NOT NULL,
    actor   text NOT NULL,
    reason  text NOT NULL,
    at      bigint NOT NULL,
    diff    text NOT NULL,
    content text
  );
  CREATE INDEX document_revisions_by_document ON document_revisions (silo, bundle, path, id);
  -- Content of database-backed documents (several machines sharing one store).
  CREATE TABLE document_contents (
    silo       text COLLATE "C" NOT NULL,
    bundle     text COLLATE "C" NOT NULL,
    path       text COLLATE "C" NOT NULL,
    content    text NOT NULL,
    updated_at bigint NOT NULL,
    PRIMARY KEY (silo, bundle, path)
  );
`;
