// The migration that adds long-term facts (appended to MIGRATIONS in schema.ts; never edit it
// once shipped, append another).
//
// Vectors live in vec0 tables, one per dimension (fact_vectors_512, fact_vectors_1536, …), created
// by the first fact of that dimension (see facts.ts): vec0 fixes the dimension when a table is
// created and the embedding model is chosen per syndicate. Each is partitioned by silo, so a query
// scans one silo's vectors only (exact top-10 in 4.5 ms at 100k). The FTS5 index is contentless
// with real deletes: it keeps no copy of the text, and deleting a fact removes its entries.
export const FACTS_MIGRATION = `
  -- One row per silo that holds facts: the model its vectors came from, so it never mixes two.
  CREATE TABLE fact_silos (
    silo            TEXT PRIMARY KEY,
    embedding_model TEXT NOT NULL,
    dimensions      INTEGER NOT NULL
  ) WITHOUT ROWID;
  -- number is the rowid of the fact's vector and text index entries.
  -- keys holds a JSON array of lower-cased strings.
  CREATE TABLE facts (
    number          INTEGER PRIMARY KEY,
    id              TEXT NOT NULL UNIQUE,
    silo            TEXT NOT NULL REFERENCES fact_silos (silo),
    text            TEXT NOT NULL,
    tag             TEXT NOT NULL,
    date            TEXT,
    source          TEXT NOT NULL,
    keys            TEXT NOT NULL,
    status          TEXT NOT NULL,
    superseded_by   TEXT,
    session_id      TEXT,
    turn_id         TEXT,
    embedding_model TEXT NOT NULL,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
  );
  CREATE INDEX facts_by_silo ON facts (silo, created_at);
  CREATE VIRTUAL TABLE fact_text USING fts5 (text, keys, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2');
  -- How far each session's events have been distilled into each silo.
  CREATE TABLE fact_ingestion (
    silo        TEXT NOT NULL,
    session_id  TEXT NOT NULL,
    through_seq INTEGER NOT NULL,
    PRIMARY KEY (silo, session_id)
  ) WITHOUT ROWID;
`;

// Vector search moves from sqlite-vec's exact vec0 scan (139 ms for a top 40 at 100k facts) to a
// binary first pass and an exact re-rank (see binaryCodes.ts and factIndex.ts): each fact's sign-bit
// code sits in fact_codes, clustered by silo so a process loads a silo's codes in one range read,
// and its float vector in fact_embeddings, read by number for the re-rank. fact_silos.version
// counts writes to the silo, so a process holding a silo's codes in memory sees another's writes.
// Facts embedded before this migration sit in vec0 tables whose names depend on their dimension,
// which SQL cannot name: facts.ts moves them over when it opens the database.
//
// fact_text_vocab gives each word's document count, so a full-text query can tell common words.
export const FACT_CODES_MIGRATION = `
  ALTER TABLE fact_silos ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
  CREATE TABLE fact_codes (
    silo   TEXT NOT NULL,
    number INTEGER NOT NULL,
    tag    TEXT NOT NULL,
    status TEXT NOT NULL,
    code   BLOB NOT NULL,
    PRIMARY KEY (silo, number)
  ) WITHOUT ROWID;
  CREATE TABLE fact_embeddings (
    number    INTEGER PRIMARY KEY,
    embedding BLOB NOT NULL
  );
  CREATE VIRTUAL TABLE fact_text_vocab USING fts5vocab (fact_text, 'row');
`;

// Issue 15. A restatement merged into a fact is kept as a row of its own, status 'merged', linked
// by \`restates\` to the fact it restates: merging never drops what the user said. \`subject\` and
// \`attribute\` are what the fact is about as the client or the extraction model said (null when
// neither did): a correction retires the same subject's same attribute, never a sibling.
export const FACT_RESTATES_MIGRATION = `
  ALTER TABLE facts ADD COLUMN restates TEXT;
  ALTER TABLE facts ADD COLUMN subject TEXT;
  ALTER TABLE facts ADD COLUMN attribute TEXT;
`;
