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

/** The name of the HNSW index of one dimension, without the dimension. */
export const HNSW_INDEX_PREFIX = 'facts_hnsw_half_';

/**
 * The half-precision copy of a vector expression that HNSW indexes: normalised first, since cosine
 * distance ignores length and a long vector could overflow half precision.
 */
export function halfvecOf(vector: string, dimensions: number): string {
  return `l2_normalize(${vector}::vector(${dimensions}))::halfvec(${dimensions})`;
}

// The HNSW indexes move to half precision: half the size (at 100k 512-dim facts 156 MB instead of
// 312 MB, the server's memory it competes for), and measured there at hnsw.ef_search 100 a search
// cost the server about 20% less CPU (11.7 ms against 14.4-16 ms on a loaded 2-core machine; wall
// time was within the noise). Only candidates come from the index; searches re-rank them by exact distance
// on the full vectors, so scores do not change. Each dimension in use gets its new index here (the
// migration can take minutes on a large database), then the full-precision one is dropped.
export const HALFVEC_INDEX_MIGRATION = `
  DO $$
  DECLARE
    n integer;
    old text;
  BEGIN
    -- Read into an array first: CREATE INDEX refuses a table this session still has a cursor open on.
    FOREACH n IN ARRAY (SELECT coalesce(array_agg(DISTINCT dimensions), '{}') FROM facts WHERE dimensions <= 2000) LOOP
      EXECUTE format(
        'CREATE INDEX IF NOT EXISTS %I ON facts USING hnsw ((l2_normalize(embedding::vector(%s))::halfvec(%s)) halfvec_cosine_ops) WHERE dimensions = %s',
        'facts_hnsw_half_' || n, n, n, n);
    END LOOP;
    FOR old IN SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'facts' AND indexname ~ '^facts_hnsw_[0-9]+$' LOOP
      EXECUTE format('DROP INDEX %I', old);
    END LOOP;
  END $$;
`;

// The full-text index without its pending list. With GIN's default fastupdate, new facts' words
// wait in a list every search reads through until a vacuum merges it: after 120k facts were
// loaded, 404 pending pages made a text search of the 100k-fact silo 9.2 ms at p50 instead of
// 1.5 ms (bench/postgresRecall.ts). Facts arrive a few at a time, so each insert updates the index
// itself; this merges what is pending now.
export const FACTS_SEARCH_NO_PENDING_MIGRATION = `
  ALTER INDEX facts_search SET (fastupdate = off);
  SELECT gin_clean_pending_list('facts_search');
`;
