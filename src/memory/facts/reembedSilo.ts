import type { FactStore } from '../../store/facts.js';
import type { Embedder } from '../embeddings/embedder.js';

/**
 * Re-embeds every fact of the silo with `embedder` and switches the silo to its model in one
 * write (`syndicate memory reembed --silo S`). Returns how many facts were re-embedded.
 */
export async function reembedSilo(facts: FactStore, embedder: Embedder, silo: string, signal?: AbortSignal): Promise<number> {
  const all = await facts.listFacts(silo);
  if (all.length === 0) return 0;
  const vectors = await embedder.embed(all.map((fact) => fact.text), signal);
  await facts.replaceEmbeddings(silo, embedder.model, new Map(all.map((fact, index) => [fact.id, vectors[index]!])));
  return all.length;
}
