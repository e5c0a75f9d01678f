import { localEmbedder } from '../src/memory/embeddings/localEmbedder.js';
import { calibrationFor, type EmbedderCalibration } from '../src/memory/facts/calibration.js';
import { fakeEmbedder } from '../test/memory/fakeEmbedder.js';
import { memoized } from './memory.js';
import { devSet } from './memoryQuality/devSet.js';
import { runBenchSet } from './memoryQuality/runBenchSet.js';
import { report } from './stats.js';

// Where src/memory/facts/calibration.ts's rows come from: each of an embedder's calibrated
// similarities swept on the development set alone (never the held-out one), the others held at
// their calibrated values, without subject/attribute hints (what a client that sends none gets).

const SEED = 4;
const SWEEPS: { [K in keyof EmbedderCalibration]: number[] } = {
  tieMargin: [0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 1],
  dedup: [0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.93, 0.96],
  supersede: [0.3, 0.35, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7],
  restated: [0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.93],
};

export async function benchMemoryCalibration(): Promise<void> {
  const set = devSet(SEED);
  for (const embedder of [memoized(fakeEmbedder(512, 'synthetic-bow-512')), memoized(localEmbedder())]) {
    report(`calibrated [${embedder.model}]`, { ...calibrationFor(embedder.model) });
    for (const [name, values] of Object.entries(SWEEPS) as [keyof EmbedderCalibration, number[]][]) {
      for (const value of values) {
        const score = await runBenchSet(set, embedder, false, { [name]: value });
        report(`  ${name}=${value}`, {
          recall_at_1: score.recallAt1,
          corrected: score.byClass.corrected?.recallAt1 ?? 0,
          stale_as_current: score.staleAsCurrent,
          right_merges: `${score.rightMerges}/${score.restatements}`,
          wrong_merges: score.wrongMerges,
          stored_over_unique: score.storedOverUnique,
          siblings_retired: score.siblingsRetired,
          wrongly_retired: score.wronglyRetired,
        });
      }
    }
  }
}
