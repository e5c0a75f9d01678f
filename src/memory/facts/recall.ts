import type { FactRecord, FactStore, ScoredFact } from '../../store/facts.js';
import type { Embedder } from '../embeddings/embedder.js';
import { calibrationFor } from './calibration.js';
import { factAsOf } from './recallAsOf.js';

// Hybrid recall: nearest vectors and full-text matches, merged, then ranked by cosine similarity,
// with lexical evidence (full-text rank, key overlap, date, recency) breaking near-ties only (never
// over a fact with a clearly better cosine), and
// superseded facts below the facts that hold now.

export interface RecallSource {
  facts: FactStore;
  embedder: Embedder;
  silo: string;
  /** By default the one measured for the embedder (calibration.ts). */
  tieMargin?: number;
}

export interface RecallOptions {
  /** How many facts to return (default 10). */
  limit?: number;
  /** The day the question is about (YYYY-MM-DD); dates written in the query count too. */
  date?: string;
  signal?: AbortSignal;
  /** For recency; defaults to Date.now(), or asOf when given. */
  now?: number;
  /** Milliseconds since the epoch: recall memory as it stood then (facts said later left out, each with the status it had). */
  asOf?: number;
}

export interface RecalledFact {
  fact: FactRecord;
  score: number;
  /** False for a superseded fact: history, never the current answer. */
  current: boolean;
  /** For a superseded fact, the correction that replaced it (when it still exists). */
  correction?: FactRecord;
}

export const DEFAULT_RECALL_LIMIT = 10;
// Each search contributes this many candidates to the merge, enough to re-rank a top 10.
const CANDIDATES = 40;
// Lexical evidence, each part 0-1, weighed within itself. Its total moves a fact by at most
// TIE_BAND of cosine similarity, so it orders facts the embedder scores alike and cannot lift a fact
// over one with a clearly better cosine (issue 15: with word and key overlap weighed at 0.45 of
// 1, more than half the misses had the right fact second, below one with a lower cosine).
// Development set (BENCH=memoryQuality, use-lite-512, recall@1): band 0.02 0.87, 0.05 0.87,
// 0.1 0.87, 0.2 0.88, 0.3 0.88, 0.5 0.92, 0.8 0.93 (the former weights: 0.94). Its questions share
// words with their answers more than users' do; 0.5 keeps most of what they gain while halving
// how far words can outvote the embedder.
// A fact said to state an attribute the query names (its `attribute`, every word of it) counts
// like its keys named: on the development set, hints on, recall@1 0.92 -> 0.93 at 0.3.
const EVIDENCE = { text: 0.5, keys: 0.3, attribute: 0.3, date: 0.15, recency: 0.05 };
const TIE_BAND = 0.5;
// A superseded fact keeps its place in the list as history, below the facts that hold now.
export const SUPERSEDED_FACTOR = 0.5;
const RECENCY_DAYS = 90;
const DAY_MS = 86_400_000;
const WORD = /[\p{L}\p{N}]+/gu;
const DATE = /\b\d{4}-\d{2}-\d{2}\b/g;

interface Candidate {
  fact: FactRecord;
  vector: number;
  text: number;
}

function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(WORD) ?? []);
}

/** The share of the fact's keys named in the query (every word of a multi-word key). */
function keyOverlap(keys: readonly string[], query: ReadonlySet<string>): number {
  if (keys.length === 0) return 0;
  const named = keys.filter((key) => [...words(key)].every((word) => query.has(word)));
  return named.length / keys.length;
}

function merge(vectorHits: readonly ScoredFact[], textHits: readonly ScoredFact[]): Map<string, Candidate> {
  const candidates = new Map<string, Candidate>();
  for (const { fact, score } of vectorHits) candidates.set(fact.id, { fact, vector: Math.max(0, score), text: 0 });
  // BM25 has no fixed scale: normalised by the best match of this query.
  const best = Math.max(0, ...textHits.map((hit) => hit.score));
  for (const { fact, score } of textHits) {
    const text = best > 0 ? score / best : 0;
    const known = candidates.get(fact.id);
    if (known) known.text = text;
    else candidates.set(fact.id, { fact, vector: 0, text });
  }
  return candidates;
}

/**
 * A merged restatement is found by its own wording but answers as the fact it restates: it lends
 * that fact its better scores and is not listed itself. One whose fact was deleted is left out.
 */
async function foldRestatements(candidates: Map<string, Candidate>, facts: FactStore, silo: string): Promise<Candidate[]> {
  const folded = new Map([...candidates].filter(([, { fact }]) => fact.restates === null));
  for (const { fact, vector, text } of candidates.values()) {
    if (fact.restates === null) continue;
    const primary = folded.get(fact.restates) ?? candidates.get(fact.restates) ?? (await primaryCandidate(facts, silo, fact.restates));
    if (primary === undefined) continue;
    primary.vector = Math.max(primary.vector, vector);
    primary.text = Math.max(primary.text, text);
    folded.set(primary.fact.id, primary);
  }
  return [...folded.values()];
}

/** The candidates as they stood at `asOf`: those said later left out, those corrected later current again. */
async function candidatesAsOf(candidates: readonly Candidate[], asOf: number, facts: FactStore, silo: string): Promise<Candidate[]> {
  const byId = new Map(candidates.map((candidate) => [candidate.fact.id, candidate.fact]));
  const factById = async (id: string): Promise<FactRecord | undefined> => byId.get(id) ?? (await facts.getFact(silo, id));
  const then: Candidate[] = [];
  for (const candidate of candidates) {
    const fact = await factAsOf(candidate.fact, asOf, factById);
    if (fact !== undefined) then.push({ ...candidate, fact });
  }
  return then;
}

async function primaryCandidate(facts: FactStore, silo: string, id: string): Promise<Candidate | undefined> {
  const fact = await facts.getFact(silo, id);
  return fact === undefined ? undefined : { fact, vector: 0, text: 0 };
}

export async function recallFacts(source: RecallSource, query: string, options: RecallOptions = {}): Promise<RecalledFact[]> {
  const { facts, embedder, silo } = source;
  const { asOf } = options;
  const limit = options.limit ?? DEFAULT_RECALL_LIMIT;
  // Recency is measured from the moment asked about, as it would have been then.
  const now = options.now ?? asOf ?? Date.now();
  const [embedding] = await embedder.embed([query], options.signal);
  const [vectorHits, textHits] = await Promise.all([
    facts.searchVectors(silo, { embedding: embedding!, embeddingModel: embedder.model, limit: CANDIDATES }),
    facts.searchText(silo, query, CANDIDATES),
  ]);
  const queryWords = words(query);
  const dates = new Set([...(query.match(DATE) ?? []), ...(options.date ? [options.date] : [])]);
  const merged = merge(vectorHits, textHits);
  // A restatement said after the moment asked about lends its fact nothing.
  if (asOf !== undefined) for (const [id, { fact }] of merged) if (fact.createdAt > asOf) merged.delete(id);
  const folded = await foldRestatements(merged, facts, silo);
  const candidates = asOf === undefined ? folded : await candidatesAsOf(folded, asOf, facts, silo);
  const bestVector = Math.max(0, ...candidates.filter(({ fact }) => fact.status === 'active').map(({ vector }) => vector));
  // A current fact whose cosine trails the best current one by more than the tie margin is clearly
  // the worse semantic match: no lexical evidence lifts it over the facts near the best (issue 15:
  // on the independent benchmark cosine alone beat the hybrid).
  const tieMargin = source.tieMargin ?? calibrationFor(embedder.model).tieMargin;
  const ranked = candidates
    .map(({ fact, vector, text }) => {
      const current = fact.status === 'active';
      const ageDays = Math.max(0, now - fact.createdAt) / DAY_MS;
      const evidence =
        EVIDENCE.text * text +
        EVIDENCE.keys * keyOverlap(fact.keys, queryWords) +
        EVIDENCE.attribute * (fact.attribute !== null && keyOverlap([fact.attribute], queryWords) > 0 ? 1 : 0) +
        EVIDENCE.date * (fact.date !== null && dates.has(fact.date) ? 1 : 0) +
        EVIDENCE.recency * Math.exp(-ageDays / RECENCY_DAYS);
      const score = vector + TIE_BAND * evidence;
      return { fact, current, score: current ? score : score * SUPERSEDED_FACTOR, nearBest: current && vector >= bestVector - tieMargin };
    })
    .sort((a, b) => Number(b.nearBest) - Number(a.nearBest) || b.score - a.score || b.fact.createdAt - a.fact.createdAt)
    .map(({ nearBest: _nearBest, ...hit }) => hit)
    .slice(0, limit);
  return Promise.all(
    ranked.map(async (hit): Promise<RecalledFact> => {
      if (hit.current || hit.fact.supersededBy === null) return hit;
      const correction = ranked.find((other) => other.fact.id === hit.fact.supersededBy)?.fact ?? (await facts.getFact(silo, hit.fact.supersededBy));
      return correction ? { ...hit, correction } : hit;
    }),
  );
}
