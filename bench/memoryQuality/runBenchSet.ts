import type { Embedder } from '../../src/memory/embeddings/embedder.js';
import type { EmbedderCalibration } from '../../src/memory/facts/calibration.js';
import { createFactMemory, type FactMemory } from '../../src/memory/facts/factMemory.js';
import type { RememberInput } from '../../src/memory/facts/fact.js';
import { createScriptedModel } from '../../src/models/scripted/createScriptedModel.js';
import type { SqliteStore } from '../../src/store/sqlite/index.js';
import { tempStore } from '../memory.js';
import type { BenchSet, BenchSilo, BenchStatement, QuestionClass } from './benchSet.js';

// Scores a memory benchmark set as /work/wt/issues/memory-bench-scoring.md describes: every
// statement goes through FactMemory.remember and every question through FactMemory.recall, what
// the MCP `remember` and `recall` tools call, on a fresh SQLite store.

type Truth = BenchStatement['truth'];

export interface BenchScore {
  set: string;
  embedder: string;
  hints: boolean;
  questions: number;
  recallAt1: number;
  /** recall@1 over the questions of each class. */
  byClass: Partial<Record<QuestionClass, { questions: number; recallAt1: number }>>;
  staleAsCurrent: number;
  rightMerges: number;
  wrongMerges: number;
  /** Restatement statements of the set, what a perfect memory would merge. */
  restatements: number;
  storedOverUnique: number;
  siblingsRetired: number;
  siblings: number;
  /** Facts retired by a statement about another slot (a sibling, or anything a correction wrongly took for what it corrects). */
  wronglyRetired: number;
  leaked: number;
}

/** Overrides of the embedder's calibration, for sweeps; the measured one by default. */
export type CalibrationOverride = Partial<EmbedderCalibration>;

function memoryFor(store: SqliteStore, embedder: Embedder, silo: string, calibration: CalibrationOverride = {}): FactMemory {
  // remember and recall never call the extraction model; the scripted one stands in for it.
  const model = createScriptedModel({ agentName: 'MemoryExtractor', subagents: [], script: [] });
  return createFactMemory({ store, embedder, silo, model, dedupThreshold: calibration.dedup, supersedeThreshold: calibration.supersede, restatedThreshold: calibration.restated, tieMargin: calibration.tieMargin });
}

/** What remember receives for a statement: the tool's fields, with the hints only when asked for. */
export function rememberInput(statement: BenchStatement, hints: boolean): RememberInput {
  const input: RememberInput = { text: statement.text, tag: statement.tag, keys: statement.keys, said_at: statement.saidAt };
  if (!hints) return input;
  return { ...input, ...(statement.subject === undefined ? {} : { subject: statement.subject }), ...(statement.attribute === undefined ? {} : { attribute: statement.attribute }) };
}

interface SiloTally {
  hits: number;
  questions: number;
  byClass: Map<QuestionClass, { questions: number; hits: number }>;
  corrected: number;
  stale: number;
  rightMerges: number;
  wrongMerges: number;
  restatements: number;
  primary: number;
  unique: number;
  siblings: number;
  siblingsRetired: number;
  wronglyRetired: number;
  leaked: number;
}

async function runSilo(memory: FactMemory, store: SqliteStore, silo: BenchSilo, hints: boolean, tally: SiloTally): Promise<void> {
  const truthOf = new Map<string, Truth>();
  const siblingFacts: string[] = [];
  for (const statement of silo.statements) {
    const outcome = await memory.remember(rememberInput(statement, hints));
    if (statement.truth.role === 'restatement') tally.restatements++;
    if (outcome.kind === 'stored') {
      truthOf.set(outcome.fact.id, statement.truth);
      if (statement.truth.role === 'sibling') siblingFacts.push(outcome.fact.id);
      continue;
    }
    const merged = truthOf.get(outcome.of.id);
    if (merged?.slot === statement.truth.slot && merged.value === statement.truth.value) tally.rightMerges++;
    else tally.wrongMerges++;
  }
  const stored = await store.facts.listFacts(silo.silo);
  const status = new Map(stored.map((fact) => [fact.id, fact.status]));
  tally.primary += stored.filter((fact) => fact.restates === null).length;
  tally.unique += new Set(silo.statements.map(({ truth }) => `${truth.slot}\n${truth.value}`)).size;
  tally.siblings += siblingFacts.length;
  tally.siblingsRetired += siblingFacts.filter((id) => status.get(id) === 'superseded').length;
  tally.wronglyRetired += stored.filter((fact) => fact.supersededBy !== null && truthOf.get(fact.id)?.slot !== truthOf.get(fact.supersededBy)?.slot).length;
  for (const question of silo.questions) {
    const recalled = await memory.recall(question.question, { now: Date.parse(question.askedAt) });
    tally.leaked += recalled.filter((hit) => hit.fact.silo !== silo.silo).length;
    const top = recalled[0] === undefined ? undefined : truthOf.get(recalled[0].fact.id);
    const hit = top?.slot === question.slot && top.value === question.currentValue;
    tally.questions++;
    if (hit) tally.hits++;
    for (const each of question.classes) {
      const counts = tally.byClass.get(each) ?? { questions: 0, hits: 0 };
      counts.questions++;
      if (hit) counts.hits++;
      tally.byClass.set(each, counts);
    }
    if (!question.classes.includes('corrected')) continue;
    tally.corrected++;
    const staleCurrent = recalled.some((each) => {
      const truth = truthOf.get(each.fact.id);
      return each.current && truth?.slot === question.slot && question.staleValues.includes(truth.value);
    });
    if (staleCurrent) tally.stale++;
  }
}

export async function runBenchSet(set: BenchSet, embedder: Embedder, hints: boolean, calibration?: CalibrationOverride): Promise<BenchScore> {
  const { store, dispose } = tempStore('quality');
  const tally: SiloTally = {
    hits: 0, questions: 0, byClass: new Map(), corrected: 0, stale: 0, rightMerges: 0, wrongMerges: 0,
    restatements: 0, primary: 0, unique: 0, siblings: 0, siblingsRetired: 0, wronglyRetired: 0, leaked: 0,
  };
  try {
    for (const silo of set.silos) await runSilo(memoryFor(store, embedder, silo.silo, calibration), store, silo, hints, tally);
  } finally {
    await dispose();
  }
  const ratio = (part: number, whole: number): number => (whole === 0 ? 0 : part / whole);
  return {
    set: set.name,
    embedder: embedder.model,
    hints,
    questions: tally.questions,
    recallAt1: ratio(tally.hits, tally.questions),
    byClass: Object.fromEntries([...tally.byClass].map(([name, counts]) => [name, { questions: counts.questions, recallAt1: ratio(counts.hits, counts.questions) }])),
    staleAsCurrent: ratio(tally.stale, tally.corrected),
    rightMerges: tally.rightMerges,
    wrongMerges: tally.wrongMerges,
    restatements: tally.restatements,
    storedOverUnique: ratio(tally.primary, tally.unique),
    siblingsRetired: tally.siblingsRetired,
    siblings: tally.siblings,
    wronglyRetired: tally.wronglyRetired,
    leaked: tally.leaked,
  };
}

/** remember's p50 (embedding included) beside a store that only embeds and appends, on the first statements of a set. */
export async function rememberLatency(set: BenchSet, embedder: Embedder, sample: number): Promise<{ rememberP50: number; appendP50: number }> {
  const statements = set.silos.flatMap((silo) => silo.statements.map((statement) => ({ silo: silo.silo, statement }))).slice(0, sample);
  const full = tempStore('quality');
  const plain = tempStore('quality');
  const remember: number[] = [];
  const append: number[] = [];
  try {
    const memories = new Map<string, FactMemory>();
    // Alternating the two, so a noisy neighbour slows both alike.
    for (const { silo, statement } of statements) {
      const memory = memories.get(silo) ?? memoryFor(full.store, embedder, silo);
      memories.set(silo, memory);
      let start = performance.now();
      await memory.remember(rememberInput(statement, false));
      remember.push(performance.now() - start);
      start = performance.now();
      const [embedding] = await embedder.embed([statement.text]);
      await plain.store.facts.insertFact(silo, {
        text: statement.text, tag: statement.tag, date: null, source: 'user', keys: statement.keys, provenance: null, embedding: embedding!, embeddingModel: embedder.model,
      });
      append.push(performance.now() - start);
    }
  } finally {
    await full.dispose();
    await plain.dispose();
  }
  const median = (samples: number[]): number => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? Number.NaN;
  return { rememberP50: median(remember), appendP50: median(append) };
}
