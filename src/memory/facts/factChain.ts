import type { FactRecord, FactStore } from '../../store/facts.js';

// A fact's supersession chain, read the same way by `syndicate memory show` and the server's
// memory API: the corrections that retired it, the facts it retired, and its merged restatements.

export interface FactChain {
  /** The corrections that retired the fact, each retired by the next when corrected again. */
  supersededBy: FactRecord[];
  /** A correction in that chain that no longer exists (deleted); null when none is missing. */
  deletedCorrection: string | null;
  /** The facts this one retired, when it is a correction (an edit included), newest first. */
  supersedes: FactRecord[];
  /** Restatements merged into this fact, newest first. */
  restatements: FactRecord[];
}

export async function factChain(facts: FactStore, fact: FactRecord): Promise<FactChain> {
  const supersededBy: FactRecord[] = [];
  let deletedCorrection: string | null = null;
  const seen = new Set([fact.id]);
  for (let next = fact.supersededBy; next !== null && !seen.has(next); ) {
    seen.add(next);
    const correction = await facts.getFact(fact.silo, next);
    if (correction === undefined) {
      deletedCorrection = next;
      break;
    }
    supersededBy.push(correction);
    next = correction.supersededBy;
  }
  const [supersedes, restatements] = await Promise.all([facts.listFacts(fact.silo, { supersededBy: fact.id }), facts.listFacts(fact.silo, { restates: fact.id })]);
  return { supersededBy, deletedCorrection, supersedes, restatements };
}
