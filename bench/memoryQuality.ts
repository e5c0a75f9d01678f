import { localEmbedder } from '../src/memory/embeddings/localEmbedder.js';
import { fakeEmbedder } from '../test/memory/fakeEmbedder.js';
import { memoized } from './memory.js';
import type { BenchSet } from './memoryQuality/benchSet.js';
import { colleagueSet } from './memoryQuality/colleagueSet.js';
import { devSet } from './memoryQuality/devSet.js';
import { heldOutSet } from './memoryQuality/heldOut.js';
import { rememberLatency, runBenchSet, type BenchScore } from './memoryQuality/runBenchSet.js';
import { report } from './stats.js';

// Memory quality on conversations (issue 15): every benchmark set, on the real local embedder and
// a synthetic one, with and without the subject/attribute hints, scored through remember/recall.

const SEED = 4;
const LATENCY_SAMPLE = 300;

function print(score: BenchScore): void {
  report(`${score.set} [${score.embedder}] hints=${score.hints ? 'on' : 'off'}`, {
    questions: score.questions,
    recall_at_1: score.recallAt1,
    stale_as_current: score.staleAsCurrent,
    right_merges: `${score.rightMerges}/${score.restatements}`,
    wrong_merges: `${score.wrongMerges}`,
    stored_over_unique: score.storedOverUnique,
    siblings_retired: `${score.siblingsRetired}/${score.siblings}`,
    wrongly_retired: score.wronglyRetired,
    leaked: score.leaked,
  });
  report('  recall_at_1 by class', Object.fromEntries(Object.entries(score.byClass).map(([name, each]) => [`${name}(${each.questions})`, each.recallAt1])));
}

export async function benchMemoryQuality(): Promise<void> {
  // The held-out and colleague sets come from generators memory was never tuned on: their figures
  // are reported, not tuned to.
  const sets: BenchSet[] = [devSet(SEED), heldOutSet(SEED), colleagueSet(SEED)];
  for (const make of [() => fakeEmbedder(512, 'synthetic-bow-512'), localEmbedder]) {
    const embedder = memoized(make());
    for (const set of sets) {
      for (const hints of [true, false]) print(await runBenchSet(set, embedder, hints));
    }
    const latency = await rememberLatency(sets[0]!, make(), LATENCY_SAMPLE);
    report(`remember latency [${embedder.model}]`, { remember_p50_ms: latency.rememberP50, embed_append_p50_ms: latency.appendP50, ratio: latency.rememberP50 / latency.appendP50 });
  }
}
