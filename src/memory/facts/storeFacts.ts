import { EmbeddingModelMismatchError, type FactRecord, type FactStore, type NewFact } from '../../store/facts.js';
import type { Embedder } from '../embeddings/embedder.js';

// Writes candidate facts to a silo: a dedup probe drops restatements, and a CORRECTION retires
// the active facts it corrects (similar and sharing a key) without deleting them.

/** A fact before it is embedded. */
export type CandidateFact = Omit<NewFact, 'embedding' | 'embeddingModel'>;

export interface FactWriter {
  facts: FactStore;
  embedder: Embedder;
  silo: string;
  /** Cosine similarity at or above which an active fact with the same tag is the same fact. */
  dedupThreshold: number;
  /** Cosine similarity at or above which a correction retires an active fact that shares a key (see SUPERSEDE_MARGIN). */
  supersedeThreshold: number;
}

export type StoreOutcome =
  | { kind: 'stored'; fact: FactRecord; superseded: string[] }
  | { kind: 'duplicate'; of: FactRecord; superseded: string[] };

export interface StoreReport {
  outcomes: StoreOutcome[];
  warnings: string[];
}

// How many neighbours a correction looks at: it rarely corrects more than a few facts.
const CORRECTION_CANDIDATES = 20;
// A correction retires only the facts nearly as close to it as the closest one. Facts that share a
// key but say something else ("the user's home has a balcony" beside "the user lives in Paris")
// sit further away: on the memory benchmark (USE-lite, threshold 0.4) this margin cut such facts
// retired by mistake from 28% to 7%, while stale facts left current rose from 0% to 2%.
const SUPERSEDE_MARGIN = 0.1;

function sharesKey(a: readonly string[], b: readonly string[]): boolean {
  const keys = new Set(a.map((key) => key.toLowerCase()));
  return b.some((key) => keys.has(key.toLowerCase()));
}

export async function storeFacts(writer: FactWriter, candidates: readonly CandidateFact[], signal?: AbortSignal): Promise<StoreReport> {
  const { facts, embedder, silo } = writer;
  const embeddings = await embedder.embed(candidates.map((candidate) => candidate.text), signal);
  const report: StoreReport = { outcomes: [], warnings: [] };

  // A probe that fails stores the fact anyway: a duplicate costs a slot, a lost fact costs the
  // user. A model mismatch is not a probe failure: the insert would be refused for the same reason.
  const findDuplicate = async (candidate: CandidateFact, embedding: Float32Array): Promise<FactRecord | undefined> => {
    try {
      const [nearest] = await facts.searchVectors(silo, { embedding, embeddingModel: embedder.model, limit: 1, tag: candidate.tag, activeOnly: true });
      return nearest !== undefined && nearest.score >= writer.dedupThreshold ? nearest.fact : undefined;
    } catch (error) {
      if (error instanceof EmbeddingModelMismatchError) throw error;
      report.warnings.push(`the duplicate check for "${candidate.text}" failed (${(error as Error).message}); the fact was stored anyway`);
      return undefined;
    }
  };

  // Also run for a correction that was a duplicate: an ingestion interrupted between storing a
  // correction and retiring what it corrects finishes the job when the turns are read again.
  const retireCorrected = async (correction: FactRecord, embedding: Float32Array): Promise<string[]> => {
    const neighbours = await facts.searchVectors(silo, { embedding, embeddingModel: embedder.model, limit: CORRECTION_CANDIDATES, activeOnly: true });
    const candidates = neighbours.filter(
      ({ fact, score }) => fact.id !== correction.id && score >= writer.supersedeThreshold && sharesKey(fact.keys, correction.keys) && fact.createdAt <= correction.createdAt,
    );
    const best = Math.max(...candidates.map((candidate) => candidate.score));
    const corrected = candidates.filter(({ score }) => score >= best - SUPERSEDE_MARGIN).map(({ fact }) => fact.id);
    await facts.supersedeFacts(silo, corrected, correction.id);
    return corrected;
  };

  for (const [index, candidate] of candidates.entries()) {
    signal?.throwIfAborted();
    const embedding = embeddings[index]!;
    const duplicate = await findDuplicate(candidate, embedding);
    const fact =
      duplicate ??
      (await facts.insertFact(silo, {
        text: candidate.text,
        tag: candidate.tag,
        date: candidate.date,
        source: candidate.source,
        keys: candidate.keys,
        provenance: candidate.provenance,
        embedding,
        embeddingModel: embedder.model,
        createdAt: candidate.createdAt,
      }));
    const superseded = fact.tag === 'CORRECTION' ? await retireCorrected(fact, embedding) : [];
    report.outcomes.push(duplicate ? { kind: 'duplicate', of: duplicate, superseded } : { kind: 'stored', fact, superseded });
  }
  return report;
}
