import { SUPERSEDED_FACTOR, type RecallOptions, type RecalledFact } from './recall.js';

// Recall as memory stood at a past moment: only facts said by then, each with the status it had
// then. Nothing records when a fact was retired, but a fact is retired by its correction, so it
// was current until its correction was said: a fact superseded by a correction said after the
// moment was current then, and that correction was not yet said.

type Recall = (query: string, options?: RecallOptions) => Promise<RecalledFact[]>;

export interface RecallAsOfOptions {
  /** Milliseconds since the epoch: facts said later are left out. */
  asOf: number;
  limit: number;
  signal?: AbortSignal;
}

// Every candidate recall nominates (its vector and text searches add at most 40 each), so the
// facts left once later ones are dropped are ranked among all it found.
const CANDIDATE_POOL = 80;

/** When a recalled fact stopped being current: when its correction was said, else when it was retired. */
function retiredAt(recalled: RecalledFact): number | undefined {
  if (recalled.fact.supersededBy === null) return undefined;
  return recalled.correction?.createdAt ?? recalled.fact.updatedAt;
}

function asItWas(recalled: RecalledFact, asOf: number): RecalledFact {
  const retired = retiredAt(recalled);
  if (retired === undefined || retired <= asOf) return recalled;
  return { fact: { ...recalled.fact, status: 'active', supersededBy: null }, current: true, score: recalled.score / SUPERSEDED_FACTOR };
}

export async function recallAsOf(recall: Recall, query: string, options: RecallAsOfOptions): Promise<RecalledFact[]> {
  const { asOf, limit, signal } = options;
  // Recency is measured from the moment asked about, as it would have been then.
  const candidates = await recall(query, { limit: Math.max(limit, CANDIDATE_POOL), now: asOf, signal });
  return candidates
    .filter((recalled) => recalled.fact.createdAt <= asOf)
    .map((recalled) => asItWas(recalled, asOf))
    .sort((a, b) => b.score - a.score || b.fact.createdAt - a.fact.createdAt)
    .slice(0, limit);
}
