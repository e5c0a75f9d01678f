import type { Db } from './connection.js';

// How many facts hold each common word, for the full-text query plan (textQueries in ../facts.ts).
// PostgreSQL keeps no per-word count, but ANALYZE of a tsvector column records its most common
// lexemes (up to 10x the statistics target) with the share of rows holding each: that share times
// the table's row estimate is the count of every word common enough to matter. Read at most once
// a minute; before the first ANALYZE (a small table) no word is known to be common.

const REFRESH_MS = 60_000;

export interface WordCounts {
  current(): Promise<ReadonlyMap<string, number>>;
}

export function createWordCounts(db: Db): WordCounts {
  let counts: ReadonlyMap<string, number> = new Map();
  let readAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<ReadonlyMap<string, number>> | undefined;

  const read = async (): Promise<ReadonlyMap<string, number>> => {
    const rows = await db.read<{ word: string; facts: number }>(
      `SELECT e.word, e.share * greatest(c.reltuples, 0) AS facts
       FROM pg_stats AS s
       JOIN pg_class AS c ON c.relname = s.tablename AND c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = s.schemaname)
       CROSS JOIN LATERAL unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS e (word, share)
       WHERE s.schemaname = current_schema() AND s.tablename = 'facts' AND s.attname = 'search' AND e.word IS NOT NULL`,
    );
    counts = new Map(rows.map((row) => [row.word, row.facts]));
    readAt = Date.now();
    return counts;
  };

  return {
    async current() {
      if (Date.now() - readAt < REFRESH_MS) return counts;
      reading ??= read().finally(() => (reading = undefined));
      return reading;
    },
  };
}
