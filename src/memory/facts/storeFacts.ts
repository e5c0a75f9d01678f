import { EmbeddingModelMismatchError, type FactRecord, type ScoredFact, type FactStore, type NewFact } from '../../store/facts.js';
import type { Embedder } from '../embeddings/embedder.js';
import type { FactJudge } from './factJudge.js';
import { conflictingSpecifics, substitutesValue } from './specifics.js';
import { attributeOf, correctedFacts, explicitlyDifferent, keysAgree, namesAsReplaced, namesReplacedSpecific, readsAsCorrection, restatementsOf, sharesSubstance, updatedFacts } from './supersession.js';

// Writes candidate facts to a silo: a dedup probe recognises restatements (same tag, the same
// entity keys, no conflicting name, number, date, place or negation, and similar enough for the
// embedder) and keeps each as a record linked to the fact it restates (never a second primary, never dropped), and a CORRECTION retires
// the active facts it corrects without deleting them: the closest one by meaning (a shared key
// counts as evidence), and the facts about it that restate its old value.

/** A fact before it is embedded. */
export type CandidateFact = Omit<NewFact, 'embedding' | 'embeddingModel'>;

export interface FactWriter {
  facts: FactStore;
  embedder: Embedder;
  silo: string;
  /** Cosine similarity at or above which an active fact with the same tag, a shared key and no conflicting specifics is the same fact. */
  dedupThreshold: number;
  /** Cosine similarity at or above which a correction retires the closest active fact that shares a key. */
  supersedeThreshold: number;
  /** Cosine similarity to a corrected fact at or above which an active fact repeating its old value restates it. */
  restatedThreshold: number;
  /** Decides the restatements just below dedupThreshold (a real model); without one, they are stored as new facts. */
  judge?: FactJudge;
}

/** What the dedup probe found: a fact the candidate restates, or one a judge said it replaces. */
interface Probe {
  duplicate?: FactRecord;
  replaces?: FactRecord;
}

export type StoreOutcome =
  | { kind: 'stored'; fact: FactRecord; superseded: string[] }
  /** A restatement of `of`, kept as the merged record `restatement`. */
  | { kind: 'duplicate'; of: FactRecord; restatement: FactRecord; superseded: string[] };

export interface StoreReport {
  outcomes: StoreOutcome[];
  warnings: string[];
}

// How many neighbours a correction looks at: it rarely corrects more than a few facts.
const CORRECTION_CANDIDATES = 20;
// How many neighbours the dedup probe compares: the nearest may differ in a number, the next not.
const DUPLICATE_CANDIDATES = 5;
// How far below dedupThreshold a neighbour is a hard case for the judge: on the development set
// (use-lite-512) a quarter of restatements sit within 0.1 below 0.9, as do different facts.
const JUDGE_BAND = 0.1;

// An episode is one occasion: the same words said on another day tell of another occasion ("took
// the dog to the park"), so an episode restates one said within this long of it, or about its day.
const EPISODE_WINDOW_MS = 12 * 3_600_000;

function sameOccasion(fact: FactRecord, candidate: CandidateFact, now: number): boolean {
  if (fact.date !== null && candidate.date !== null) return fact.date === candidate.date;
  return Math.abs((candidate.createdAt ?? now) - fact.createdAt) <= EPISODE_WINDOW_MS;
}

export async function storeFacts(writer: FactWriter, candidates: readonly CandidateFact[], signal?: AbortSignal): Promise<StoreReport> {
  const { facts, embedder, silo } = writer;
  const embeddings = await embedder.embed(candidates.map((candidate) => candidate.text), signal);
  const report: StoreReport = { outcomes: [], warnings: [] };

  // A probe that fails stores the fact anyway: a duplicate costs a slot, a lost fact costs the
  // user. A model mismatch is not a probe failure: the insert would be refused for the same reason.
  // A neighbour that states other names, numbers or dates is another fact or an update, not a
  // restatement: embedders score "rent is 4,800 euros" and "rent is 5,200 euros" as near-identical
  // (USE-lite: 0.984), and "I owe Clara 20 dollars" close to "I owe Tom 20 dollars".
  const findDuplicate = async (candidate: CandidateFact, embedding: Float32Array): Promise<Probe> => {
    let neighbours: ScoredFact[];
    try {
      neighbours = await facts.searchVectors(silo, {
        embedding,
        embeddingModel: embedder.model,
        limit: DUPLICATE_CANDIDATES,
        tag: candidate.tag,
        activeOnly: true,
      });
    } catch (error) {
      if (error instanceof EmbeddingModelMismatchError) throw error;
      report.warnings.push(`the duplicate check for "${candidate.text}" failed (${(error as Error).message}); the fact was stored anyway`);
      return {};
    }
    const own = attributeOf({ text: candidate.text, keys: candidate.keys, subject: candidate.subject ?? null, attribute: candidate.attribute ?? null });
    const comparable = neighbours.filter(
      ({ fact }) => keysAgree(fact.keys, candidate.keys) && (candidate.tag !== 'EPISODE' || sameOccasion(fact, candidate, Date.now())) && !explicitlyDifferent(own, attributeOf(fact)) &&
        conflictingSpecifics(fact.text, candidate.text, [...fact.keys, ...candidate.keys]).length === 0 &&
        !substitutesValue(fact.text, candidate.text) && !namesAsReplaced(candidate.text, fact),
    );
    // Similar wording is not enough to merge on: the two must share what they say (sharesSubstance).
    const duplicate = comparable.find(({ score, fact }) => score >= writer.dedupThreshold && sharesSubstance(fact, candidate))?.fact;
    if (duplicate !== undefined || writer.judge === undefined) return { duplicate };
    const hard = comparable.find(({ score }) => score >= writer.dedupThreshold - JUDGE_BAND)?.fact;
    if (hard === undefined) return {};
    try {
      const verdict = await writer.judge.judge(candidate.text, hard.text, signal);
      return verdict === 'same' ? { duplicate: hard } : verdict === 'update' ? { replaces: hard } : {};
    } catch (error) {
      report.warnings.push(`judging "${candidate.text}" against "${hard.text}" failed (${(error as Error).message}); it was stored as a new fact`);
      return {};
    }
  };

  // Only the closest fact, not every similar one: facts that share a key but say something else
  // ("the user's home has a balcony" beside "the user lives in Paris") sit nearly as close, and
  // on the memory benchmark (USE-lite) retiring all within 0.1 of the closest retired 7% of them.
  // Restatements of the corrected value are found by the value instead, which a paraphrase keeps
  // while its similarity to the correction drifts ("The user's car is a Fiat 500." sits 0.11
  // further from "Correction: the user drives a Renault Zoe now." than "The user drives a Fiat 500.").
  // Also run for a correction that was a duplicate: an ingestion interrupted between storing a
  // correction and retiring what it corrects finishes the job when the turns are read again.
  // Every earlier active neighbour is a candidate, whatever its keys: clients name an entity's keys
  // differently from one statement to the next ("employer" then "work", "job"), so a shared key is
  // evidence for the fact corrected (supersession.ts), never a condition.
  const earlierActive = async (statement: FactRecord, embedding: Float32Array): Promise<ScoredFact[]> => {
    const neighbours = await facts.searchVectors(silo, { embedding, embeddingModel: embedder.model, limit: CORRECTION_CANDIDATES, activeOnly: true });
    return neighbours.filter(({ fact }) => fact.id !== statement.id && fact.createdAt <= statement.createdAt);
  };
  const retireReplaced = async (statement: FactRecord, embedding: Float32Array): Promise<string[]> => {
    const related = await earlierActive(statement, embedding);
    const { retired: corrected, corrected: old } =
      readsAsCorrection(statement) || namesReplacedSpecific(statement) ? correctedFacts(statement, related, { supersede: writer.supersedeThreshold, restatement: writer.dedupThreshold }) : { retired: [], corrected: undefined };
    // The corrected fact's restatements are found by their likeness to it, not to the correction:
    // one embedding more per correction, none per plain statement.
    const restated = old === undefined ? [] : restatementsOf(old, statement, await earlierActive(statement, (await embedder.embed([old.text], signal))[0]!), writer.restatedThreshold);
    const retired = [...new Set([...corrected, ...restated, ...updatedFacts(statement, related)])];
    await facts.supersedeFacts(silo, retired, statement.id);
    return retired;
  };

  for (const [index, candidate] of candidates.entries()) {
    signal?.throwIfAborted();
    const embedding = embeddings[index]!;
    const { duplicate, replaces } = await findDuplicate(candidate, embedding);
    const record = await facts.insertFact(silo, {
      text: candidate.text,
      tag: candidate.tag,
      date: candidate.date,
      source: candidate.source,
      keys: candidate.keys,
      provenance: candidate.provenance,
      embedding,
      embeddingModel: embedder.model,
      createdAt: candidate.createdAt,
      subject: candidate.subject ?? null,
      attribute: candidate.attribute ?? null,
      ...(duplicate ? { restates: duplicate.id } : {}),
    });
    const fact = duplicate ?? record;
    // A restatement merged into its fact sets nothing new; a correction is read again even so (above).
    const replacing = readsAsCorrection(fact) || (duplicate === undefined && ((fact.subject !== null && fact.attribute !== null) || namesReplacedSpecific(fact)));
    const superseded = replacing ? await retireReplaced(fact, embedding) : [];
    if (replaces !== undefined && !superseded.includes(replaces.id)) {
      await facts.supersedeFacts(silo, [replaces.id], fact.id);
      superseded.push(replaces.id);
    }
    report.outcomes.push(duplicate ? { kind: 'duplicate', of: duplicate, restatement: record, superseded } : { kind: 'stored', fact, superseded });
  }
  return report;
}
