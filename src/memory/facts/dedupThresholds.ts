import { LOCAL_EMBEDDING_MODEL } from '../embeddings/localEmbedder.js';

// The cosine similarity at or above which a fact is a restatement of an active one (same tag,
// a shared key, no conflicting specifics), per embedding model: embedders spread restatements
// differently. Measured on the development set (BENCH=memoryQuality, bench/memoryQuality/devSet.ts),
// over pairs of same-tag statements sharing a key and passing the specifics check:
//   use-lite-512: restatements p10 0.82, p50 0.91; different facts max 0.887 (episodes differing
//                 only in a lower-case activity), hence 0.9.
// A model not measured keeps the former constant, which left no wrong merge on any embedder tried.
const MEASURED: Readonly<Record<string, number>> = {
  [LOCAL_EMBEDDING_MODEL]: 0.9,
};
export const DEFAULT_DEDUP_THRESHOLD = 0.93;

export function dedupThresholdFor(embeddingModel: string): number {
  return MEASURED[embeddingModel] ?? DEFAULT_DEDUP_THRESHOLD;
}
