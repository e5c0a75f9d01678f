import type { FactRecord } from '../../store/facts.js';

// Memory as it stood at a past moment: only facts said by then, each with the status it had
// then. Nothing records when a fact was retired, but a fact is retired by its correction, so it
// was current until its correction was said: a fact superseded by a correction said after the
// moment was current then, and that correction was not yet said. Recall ranks what is left as
// it ranks memory now (recall.ts), so both answer alike.

/** When a fact stopped being current: when its correction was said, else when it was retired. */
async function retiredAt(fact: FactRecord, factById: (id: string) => Promise<FactRecord | undefined>): Promise<number | undefined> {
  if (fact.supersededBy === null) return undefined;
  return (await factById(fact.supersededBy))?.createdAt ?? fact.updatedAt;
}

/** The fact as it stood at `asOf` (milliseconds since the epoch), or undefined when it was said later. */
export async function factAsOf(fact: FactRecord, asOf: number, factById: (id: string) => Promise<FactRecord | undefined>): Promise<FactRecord | undefined> {
  if (fact.createdAt > asOf) return undefined;
  const retired = await retiredAt(fact, factById);
  if (retired === undefined || retired <= asOf) return fact;
  return { ...fact, status: 'active', supersededBy: null };
}
