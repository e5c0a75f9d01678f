// Long-term facts: the storage side of memory. Every method names exactly one silo and refuses
// a call without a valid one (assertSilo), so no read or write can cross users. Async throughout so
// PostgreSQL + pgvector can implement it unchanged; test/store/factsConformance.ts runs against every
// implementation.

export const FACT_TAGS = ['FACT', 'PREFERENCE', 'DECISION', 'ACTION', 'CONTEXT', 'INSIGHT', 'CORRECTION', 'EPISODE'] as const;
export type FactTag = (typeof FACT_TAGS)[number];

/** A merged fact is a restatement kept as a record linked to the fact it restates (`restates`): searchable, never a primary. */
export type FactStatus = 'active' | 'superseded' | 'merged';

/** Where a fact was learnt: a turn of a session; null for a fact remembered outside a conversation. */
export interface FactProvenance {
  sessionId: string;
  turnId: string;
}

export interface FactRecord {
  id: string;
  silo: string;
  text: string;
  tag: FactTag;
  /** The day the fact is about (YYYY-MM-DD), when it has one. */
  date: string | null;
  /** Who asserted it: 'user' or an agent's name. */
  source: string;
  /** 1-5 entity keys, lower-cased. */
  keys: string[];
  status: FactStatus;
  /** The correction that retired this fact; null while it is active. */
  supersededBy: string | null;
  /** For a merged restatement, the fact it restates; null for a primary fact. */
  restates: string | null;
  /** The entity the fact is about and which of its attributes it states, when the client or the extraction model said. */
  subject: string | null;
  attribute: string | null;
  provenance: FactProvenance | null;
  /** The model that produced the fact's stored vector. */
  embeddingModel: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
  updatedAt: number;
}

/** A fact's row as both stores select it (their COLUMNS), with the keys in the store's own encoding. */
export interface FactRow<Keys> {
  number: number;
  id: string;
  silo: string;
  text: string;
  tag: string;
  date: string | null;
  source: string;
  keys: Keys;
  status: string;
  supersededBy: string | null;
  restates: string | null;
  subject: string | null;
  attribute: string | null;
  sessionId: string | null;
  turnId: string | null;
  embeddingModel: string;
  createdAt: number;
  updatedAt: number;
}

/** The record of a fact's row, given its keys decoded. */
export function factRecordOf(row: FactRow<unknown>, keys: string[]): FactRecord {
  return {
    id: row.id,
    silo: row.silo,
    text: row.text,
    tag: row.tag as FactTag,
    date: row.date,
    source: row.source,
    keys,
    status: row.status as FactStatus,
    supersededBy: row.supersededBy,
    restates: row.restates,
    subject: row.subject,
    attribute: row.attribute,
    provenance: row.sessionId === null || row.turnId === null ? null : { sessionId: row.sessionId, turnId: row.turnId },
    embeddingModel: row.embeddingModel,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export interface NewFact {
  text: string;
  tag: FactTag;
  date: string | null;
  source: string;
  keys: readonly string[];
  provenance: FactProvenance | null;
  embedding: Float32Array;
  embeddingModel: string;
  /** Defaults to now; ingestion passes the time of the turn the fact came from. */
  createdAt?: number;
  /** Stores the fact as a merged restatement of this fact of the silo (status 'merged'). */
  restates?: string;
  subject?: string | null;
  attribute?: string | null;
}

export interface VectorQuery {
  embedding: Float32Array;
  /** The model that embedded the query: it must be the silo's. */
  embeddingModel: string;
  limit: number;
  tag?: FactTag;
  /** Only active facts (dedup and supersession probes). */
  activeOnly?: boolean;
}

export interface ScoredFact {
  fact: FactRecord;
  /**
   * Vector search: cosine similarity (1 = same direction). Text search: a positive relevance
   * (BM25 negated), comparable only within one result list.
   */
  score: number;
}

/** Where a page of listFacts ended: its last fact's createdAt and id. */
export interface FactPosition {
  createdAt: number;
  id: string;
}

export interface ListFactsOptions {
  status?: FactStatus;
  tag?: FactTag;
  /** Only facts whose text holds this, ignoring the case of ASCII letters. */
  text?: string;
  /** Only the facts this correction retired. */
  supersededBy?: string;
  /** Only the merged restatements of this fact. */
  restates?: string;
  /**
   * Only the facts after this one in the list's order. When that fact was deleted since, the facts
   * created at the same moment are listed again rather than skipped.
   */
  after?: FactPosition;
  limit?: number;
}

export interface SiloSummary {
  silo: string;
  facts: number;
  active: number;
  embeddingModel: string;
}

// Words that match most of a silo and so rank nothing, while full-text search pays for every fact
// they match: English function words, and "user", which every extracted fact begins with (the
// extraction prompt names the subject "The user").
const UNRANKED_WORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have he her his how i if in into is it its ' +
    'me my no not of on or our she so than that the their them then there they this to was we were what when where which ' +
    'who whom why will with would you your user users'
  ).split(' '),
);
const WORD = /[\p{L}\p{N}]+/gu;

/** The distinct words of a full-text query that can rank a fact: every implementation matches any of them. */
export function rankingWords(text: string): string[] {
  return [...new Set(text.toLowerCase().match(WORD) ?? [])].filter((word) => !UNRANKED_WORDS.has(word));
}

// A word found in more facts than this is common: it nominates a fact for full-text ranking only
// together with other words of the query (see textQueries). Ranking costs per matching fact: at 100k
// facts, three words in 5,000 facts each matched 16,000 facts and took 14 ms to rank, facts with two
// of them 800 and 2.7 ms, facts with all three 5 and 0.8 ms (SQLite FTS5).
export const COMMON_WORD_FACTS = 1_000;
// The rarest words of a query that take part in the full-text search, which bounds the pairs.
const MAX_QUERY_WORDS = 16;

/** A full-text query: facts holding every word of any one of the groups. */
export type TextQuery = string[][];

/**
 * The full-text queries to try in turn, for the query's words with how many facts hold each (absent
 * words, 0, are left out). Ranking costs per matching fact, so common words nominate facts
 * together: the first query matches facts holding a rare word or all the common words; when it
 * matches nothing and the query has three common words or more and no rare one, the second matches
 * facts holding any two of them.
 */
export function textQueries(words: ReadonlyArray<{ word: string; facts: number }>): TextQuery[] {
  const present = words.filter(({ facts }) => facts > 0).sort((a, b) => a.facts - b.facts).slice(0, MAX_QUERY_WORDS);
  const rare = present.filter(({ facts }) => facts <= COMMON_WORD_FACTS).map(({ word }) => [word]);
  const common = present.filter(({ facts }) => facts > COMMON_WORD_FACTS).map(({ word }) => word);
  const first = common.length === 0 ? rare : [...rare, common];
  if (rare.length > 0 || common.length < 3) return first.length === 0 ? [] : [first];
  const pairs = common.slice(1).flatMap((word, i) => common.slice(0, i + 1).map((earlier) => [word, earlier]));
  return [first, pairs];
}

/** A query or write whose embedding model differs from the one the silo's vectors came from. */
export class EmbeddingModelMismatchError extends Error {
  constructor(
    readonly silo: string,
    readonly storedModel: string,
    readonly requestedModel: string,
  ) {
    super(
      `silo '${silo}' holds vectors from embedding model '${storedModel}', but this call uses '${requestedModel}'; ` +
        `run \`syndicate memory reembed --silo ${silo}\` to re-embed the silo with the configured model`,
    );
    this.name = 'EmbeddingModelMismatchError';
  }
}

/** What a silo's stored vectors are: the model they came from and their dimension. */
export interface SiloVectors {
  embeddingModel: string;
  dimensions: number;
}

/** Throws unless vectors of `dimensions` from `model` may be stored in, or compared with, the silo's. */
export function checkSiloVectors(silo: string, stored: SiloVectors, model: string, dimensions: number): void {
  if (stored.embeddingModel !== model) throw new EmbeddingModelMismatchError(silo, stored.embeddingModel, model);
  if (stored.dimensions !== dimensions) {
    throw new Error(`embedding model '${model}' returned ${dimensions} dimensions, but silo '${silo}' holds ${stored.dimensions}-dimensional vectors from it`);
  }
}

/** A re-embedding that does not bring exactly one vector per fact of the silo. */
export function incompleteReembedding(silo: string, facts: number, vectors: number, missing: number): Error {
  return new Error(`re-embedding silo '${silo}' needs exactly one vector per fact: ${facts} facts, ${vectors} vectors, ${missing} facts without one`);
}

export interface FactStore {
  /** Stores a fact as active. The silo's first fact fixes its embedding model; a different model is an EmbeddingModelMismatchError. */
  insertFact(silo: string, fact: NewFact): Promise<FactRecord>;
  getFact(silo: string, id: string): Promise<FactRecord | undefined>;
  /** Newest first (by createdAt, then by when they were stored). */
  listFacts(silo: string, options?: ListFactsOptions): Promise<FactRecord[]>;
  /**
   * Nearest facts by cosine similarity, best first, scored exactly. In a large silo an
   * implementation may pick the facts to score by a cheaper approximate pass first.
   */
  searchVectors(silo: string, query: VectorQuery): Promise<ScoredFact[]>;
  /**
   * Full-text matches of the text's rankingWords, best first. An implementation may leave out
   * facts that share only one word with the query when that word is common in the store.
   */
  searchText(silo: string, text: string, limit: number): Promise<ScoredFact[]>;
  /** Marks active facts superseded by `correctionId`; returns how many changed. Never deletes. */
  supersedeFacts(silo: string, ids: readonly string[], correctionId: string): Promise<number>;
  /**
   * Stores `replacement` as an active fact and marks the active fact `id` superseded by it, atomically
   * (an edit kept as a correction). Undefined, with nothing stored, when the silo holds no active fact `id`.
   */
  correctFact(silo: string, id: string, replacement: NewFact): Promise<FactRecord | undefined>;
  /** Makes a merged restatement a primary, active fact again; undefined when the silo holds no merged fact with that id. */
  unmergeFact(silo: string, id: string): Promise<FactRecord | undefined>;
  /** Deletes the fact, its vector and its text index entry. Returns false when there was none. */
  deleteFact(silo: string, id: string): Promise<boolean>;
  /** Deletes every fact, vector, index entry and ingestion mark of the silo; returns the number of facts deleted. */
  purgeSilo(silo: string): Promise<number>;
  listSilos(): Promise<SiloSummary[]>;
  /** The model of the silo's vectors; undefined for a silo without facts. */
  siloEmbeddingModel(silo: string): Promise<string | undefined>;
  /**
   * Replaces every vector of the silo with one from `embeddingModel`, atomically: `embeddings`
   * must hold one vector per fact of the silo, by fact id.
   */
  replaceEmbeddings(silo: string, embeddingModel: string, embeddings: ReadonlyMap<string, Float32Array>): Promise<void>;
  /** The seq of the last session event already ingested into the silo; 0 when none. */
  ingestedThrough(silo: string, sessionId: string): Promise<number>;
  setIngestedThrough(silo: string, sessionId: string, seq: number): Promise<void>;
}
