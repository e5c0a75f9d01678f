// The migration that adds long-term facts (MIGRATIONS in schema.ts; never edit it once shipped).
//
// A fact's vector sits in its row as an untyped pgvector `vector`: the embedding model, and with it
// the dimension, is chosen per syndicate. HNSW needs a fixed dimension, so facts.ts creates one
// partial index per dimension in use, over `embedding::vector(n)` WHERE dimensions = n, when the
// first silo of that dimension appears. `search` is the fact's full text, built at insert: its
// keys weigh twice its text (weights C and D), as in SQLite's bm25 weights.
export const FACTS_MIGRATION = `
  -- The model a silo's vectors came from, so it never mixes two.
  CREATE TABLE fact_silos (
    silo            text COLLATE "C" PRIMARY KEY,
    embedding_model text NOT NULL,
    dimensions      integer NOT NULL
  );
  CREATE TABLE facts (
    number          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id              text NOT NULL UNIQUE,
    silo            text COLLATE "C" NOT NULL REFERENCES fact_silos (silo),
    text            text NOT NULL,
    tag             text NOT NULL,
    date            text,
    source          text NOT NULL,
    keys            text[] NOT NULL,
    status          text NOT NULL,
    superseded_by   text,
    session_id      text,
    turn_id         text,
    embedding_model text NOT NULL,
    created_at      bigint NOT NULL,
    updated_at      bigint NOT NULL,
    dimensions      integer NOT NULL,
    embedding       vector NOT NULL,
    search          tsvector NOT NULL
  );
  CREATE INDEX facts_by_silo ON facts (silo, created_at DESC, number DESC);
  CREATE INDEX facts_search ON facts USING gin (search);
  -- How far each session's events have been distilled into each silo.
  CREATE TABLE fact_ingestion (
    silo        text COLLATE "C" NOT NULL,
    session_id  text NOT NULL,
    through_seq integer NOT NULL,
    PRIMARY KEY (silo, session_id)
  );
`;

// Issue 15. A restatement merged into a fact is kept as a row of its own, status 'merged', linked
// by \`restates\` to the fact it restates: merging never drops what the user said. \`subject\` and
// \`attribute\` are what the fact is about as the client or the extraction model said (null when
// neither did): a correction retires the same subject's same attribute, never a sibling.
export const FACT_RESTATES_MIGRATION = `
  ALTER TABLE facts ADD COLUMN restates text;
  ALTER TABLE facts ADD COLUMN subject text;
  ALTER TABLE facts ADD COLUMN attribute text;
`;
