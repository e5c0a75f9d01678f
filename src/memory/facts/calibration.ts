import { LOCAL_EMBEDDING_MODEL } from '../embeddings/localEmbedder.js';

// The cosine similarities memory decides by, per embedding model: embedders spread the same pairs
// of sentences differently (restatements sit near 0.9 on USE-lite and near 0.7 on a bag of
// words), so one constant serves one embedder and misleads the next. Each measured row comes from
// the development set only (BENCH=memoryCalibration sweeps bench/memoryQuality/devSet.ts).

export interface EmbedderCalibration {
  /** At or above: an active fact with the same tag, agreeing keys and no conflicting specifics is the same fact. */
  dedup: number;
  /** At or above: a correction retires the closest active fact sharing a key on its similarity alone. */
  supersede: number;
  /** At or above (the cosine to the fact a correction corrects): a fact repeating its old value restates it, whatever its keys. */
  restated: number;
  /** How far below the best current cosine a fact may sit and still be lifted over it by lexical evidence. */
  tieMargin: number;
}

// How each value is read off its sweep (the others held): dedup, the top of the lowest plateau of
// right merges without a wrong one (the rules on keys and specifics, not the cosine, refuse the
// lookalikes); supersede, the middle of the plateau of least stale-as-current and fewest facts
// retired by a statement about something else (the set's users also correct things they never
// said, which must retire nothing); restated, the middle of the plateau of least stale-as-current
// (half the set's restatements carry another key than what they restate); tieMargin, the smallest
// margin reaching the best recall@1 (lexical evidence as weak as it can be and still help).
//   use-lite-512 (dev, seed 4): dedup 0.6-0.75 41/75 merges (half the restatements are keyed
//     otherwise, never merged), 0.8 39, 0.85 33, 0.9 23, no wrong merge at any; supersede (stale,
//     wrongly retired) 0.35 0.069 13, 0.45-0.65 0.069 4, 0.7 0.086 4; restated 0.55 0.069 5, 0.6-0.8
//     0.069 4, 0.93 0.155 4; tieMargin 0.02 0.87, 0.05 0.90, 0.1 and wider 0.92 (before the
//     restatements keyed otherwise and the corrections of things never said).
//   synthetic-bow-512, the benchmarks' bag-of-words embedder (test/memory/fakeEmbedder.ts): dedup
//     0.6 70/75, 0.65 60, 0.7 52, 0.75-0.8 49, 0.85 46, no wrong merge; supersede 0.2-0.5 stale
//     0.12 wrongly retired 22, 0.55 0.12 18, 0.6 0.12 11, 0.65 0.21 7; restated 0.35-0.55 stale 0.24,
//     0.6-0.65 0.28, 0.7 0.31, 0.75+ 0.33; tieMargin 0.02 0.61, 0.05 0.64, 0.1 0.71, 0.15 0.72, 0.2+ 0.73.
const MEASURED: Readonly<Record<string, EmbedderCalibration>> = {
  [LOCAL_EMBEDDING_MODEL]: { dedup: 0.75, supersede: 0.55, restated: 0.7, tieMargin: 0.1 },
  'synthetic-bow-512': { dedup: 0.8, supersede: 0.6, restated: 0.45, tieMargin: 0.2 },
};

/**
 * For a model not measured: a restatement must sit as close as on the strictest embedder measured
 * before the rules on keys and specifics had to refuse lookalikes (0.93 merged nothing wrong on any
 * embedder tried), and supersede, restated and tieMargin are those of the local embedder, the only real one measured.
 */
export const DEFAULT_CALIBRATION: EmbedderCalibration = { dedup: 0.93, supersede: 0.55, restated: 0.7, tieMargin: 0.1 };

export function calibrationFor(embeddingModel: string): EmbedderCalibration {
  return MEASURED[embeddingModel] ?? DEFAULT_CALIBRATION;
}
