import type { PassageCandidate } from '../../store/documents.js';
import type { DocumentsContext } from './context.js';
import { DocumentError } from './errors.js';

// Hybrid passage search: candidates come from vector similarity and from full text; each is scored
// on an absolute scale (similarity to the query, plus the share of the query's words it contains),
// so a score threshold can say "nothing relevant" instead of returning the least bad passage.

export interface SearchOptions {
  /** Only this bundle. */
  bundle?: string;
  /** Most hits returned (default 5). */
  limit?: number;
  /** Most hits from one document (default 2), after adjacent passages are merged. */
  perDocument?: number;
  /** Hits scoring below this are dropped (default 0.2, on a 0-1 scale). */
  threshold?: number;
}

export interface SearchHit {
  bundle: string;
  path: string;
  title: string;
  /** 1-based, inclusive, in the whole file. */
  startLine: number;
  endLine: number;
  /** 0-1: 0.6 x cosine similarity + 0.4 x share of the query's words present. */
  score: number;
  text: string;
}

// The threshold suits the default embedder (USE-lite), whose similarities run low: on a small
// sample, paraphrases sharing no word with their passage scored 0.21-0.27 and unrelated questions
// 0.05-0.18. A provider embedder may warrant another (SearchOptions.threshold).
export const SEARCH_DEFAULTS = { limit: 5, perDocument: 2, threshold: 0.2 } as const;

const CANDIDATES = 50;
const VECTOR_WEIGHT = 0.6;
const TERM_WEIGHT = 0.4;
const MAX_TERMS = 32;

// Words too common to say what a query is about.
const STOPWORDS = new Set(
  ('a an and are as at be but by can did do does for from had has have how i in is it its me my of on or our so that the their them '
    + 'there these they this to was we were what when where which who why will with you your').split(' '),
);

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** The distinct words of a query that say what it is about. */
export function queryTerms(query: string): string[] {
  return [...new Set(words(query).filter((word) => !STOPWORDS.has(word)))].slice(0, MAX_TERMS);
}

interface Scored extends PassageCandidate {
  score: number;
}

function key(candidate: PassageCandidate): string {
  return `${candidate.bundle}/${candidate.path}#${candidate.ordinal}`;
}

/** Consecutive passages of one document become one hit spanning both, scored as the better. */
function mergeAdjacent(passages: readonly Scored[]): SearchHit[] {
  const hits: SearchHit[] = [];
  let last: { hit: SearchHit; ordinal: number } | undefined;
  for (const passage of [...passages].sort((a, b) => a.ordinal - b.ordinal)) {
    if (last !== undefined && passage.ordinal === last.ordinal + 1) {
      last.hit.endLine = passage.endLine;
      last.hit.text = `${last.hit.text}\n\n${passage.text}`;
      last.hit.score = Math.max(last.hit.score, passage.score);
      last.ordinal = passage.ordinal;
      continue;
    }
    const hit: SearchHit = {
      bundle: passage.bundle, path: passage.path, title: passage.title,
      startLine: passage.startLine, endLine: passage.endLine, score: passage.score, text: passage.text,
    };
    hits.push(hit);
    last = { hit, ordinal: passage.ordinal };
  }
  return hits;
}

export async function searchPassages(ctx: DocumentsContext, silo: string, query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
  const { limit, perDocument, threshold } = { ...SEARCH_DEFAULTS, ...options };
  const terms = queryTerms(query);
  if (terms.length === 0) throw new DocumentError(`search query ${JSON.stringify(query)} has no words to search for`);
  const models = await ctx.storage.embeddingModels(silo);
  // Nothing indexed: no need to load an embedding model to find nothing.
  if (models.length === 0) return [];
  const otherModels = models.filter((model) => model !== ctx.embedder.model);
  if (otherModels.length > 0) {
    throw new DocumentError(
      `documents in silo '${silo}' were embedded with ${otherModels.join(', ')}, but this syndicate embeds with ${ctx.embedder.model}; `
        + `run \`syndicate memory reembed --silo ${silo}\` to re-embed them`,
    );
  }
  const [vector] = await ctx.embedder.embed([query]);
  const byVector = await ctx.storage.searchVectors(silo, { vector: vector!, embeddingModel: ctx.embedder.model, limit: CANDIDATES, bundle: options.bundle });
  const byText = await ctx.storage.searchText(silo, { terms, limit: CANDIDATES, bundle: options.bundle });

  const similarity = new Map(byVector.map((candidate) => [key(candidate), candidate.similarity]));
  const candidates = new Map<string, PassageCandidate>([...byText, ...byVector].map((candidate) => [key(candidate), candidate]));
  const scored: Scored[] = [];
  for (const [id, candidate] of candidates) {
    const present = new Set(words(candidate.searchText));
    const coverage = terms.filter((term) => present.has(term)).length / terms.length;
    // A full-text-only candidate fell outside the vector top-k: its similarity is counted as none.
    const score = VECTOR_WEIGHT * Math.max(0, similarity.get(id) ?? 0) + TERM_WEIGHT * coverage;
    if (score >= threshold) scored.push({ ...candidate, score });
  }

  const byDocument = new Map<string, Scored[]>();
  for (const passage of scored) {
    const document = `${passage.bundle}/${passage.path}`;
    byDocument.set(document, [...(byDocument.get(document) ?? []), passage]);
  }
  const hits = [...byDocument.values()].flatMap((passages) =>
    mergeAdjacent(passages).sort((a, b) => b.score - a.score).slice(0, perDocument),
  );
  return hits
    .sort((a, b) => b.score - a.score || a.bundle.localeCompare(b.bundle) || a.path.localeCompare(b.path) || a.startLine - b.startLine)
    .slice(0, limit)
    .map((hit) => ({ ...hit, score: Math.round(hit.score * 1000) / 1000 }));
}
