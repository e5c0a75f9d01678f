import type { Embedder } from '../../memory/embeddings/embedder.js';
import type { FactRecord, FactStore } from '../../store/facts.js';

// Active facts that say the same thing. Oldest first, each fact not yet grouped gathers the
// ungrouped active facts with its tag at or above the threshold: every member is that similar to
// the group's first fact, as the dedup probe would have compared it. (Joining pairs transitively
// instead chained facts that differ only in a number into one group of hundreds: with the local
// embedder "budget 4,800" and "budget 5,200" score 0.98.) The FactStore cannot hand back a stored
// vector, so each fact's text is embedded again with the silo's model, the model and text its
// stored vector came from.

export interface DuplicateGroup {
  /** Oldest first: the first is the one to keep. */
  facts: FactRecord[];
  /** The highest similarity of a member to the first fact. */
  similarity: number;
}

// Neighbours looked at per fact, so a group has at most this many members besides its first; more
// restatements of one fact show up as a second group.
const NEIGHBOURS = 10;
// Facts embedded at a time: a large silo's vectors are never all held at once.
const EMBED_CHUNK = 256;

export async function findDuplicateGroups(facts: FactStore, embedder: Embedder, silo: string, threshold: number, signal?: AbortSignal): Promise<DuplicateGroup[]> {
  const active = (await facts.listFacts(silo, { status: 'active' })).reverse();
  const grouped = new Set<string>();
  const groups: DuplicateGroup[] = [];
  for (let start = 0; start < active.length; start += EMBED_CHUNK) {
    const chunk = active.slice(start, start + EMBED_CHUNK).filter((fact) => !grouped.has(fact.id));
    const vectors = await embedder.embed(chunk.map((fact) => fact.text), signal);
    for (const [index, fact] of chunk.entries()) {
      if (grouped.has(fact.id)) continue;
      const neighbours = await facts.searchVectors(silo, { embedding: vectors[index]!, embeddingModel: embedder.model, limit: NEIGHBOURS + 1, tag: fact.tag, activeOnly: true });
      const members = neighbours.filter(({ fact: other, score }) => other.id !== fact.id && score >= threshold && !grouped.has(other.id));
      if (members.length === 0) continue;
      for (const id of [fact.id, ...members.map((member) => member.fact.id)]) grouped.add(id);
      groups.push({
        facts: [fact, ...members.map((member) => member.fact).sort((a, b) => a.createdAt - b.createdAt)],
        similarity: Math.max(...members.map((member) => member.score)),
      });
    }
  }
  return groups;
}
