import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Embedder } from '../src/memory/embeddings/embedder.js';
import { localEmbedder } from '../src/memory/embeddings/localEmbedder.js';
import { calibrationFor } from '../src/memory/facts/calibration.js';
import { recallFacts } from '../src/memory/facts/recall.js';
import { storeFacts, type CandidateFact, type FactWriter } from '../src/memory/facts/storeFacts.js';
import { openSqliteStore, type SqliteStore } from '../src/store/sqlite/index.js';
import { fakeEmbedder } from '../test/memory/fakeEmbedder.js';
import { bulkFact, bulkQuestion, generateSilos, seeded } from './memoryData.js';
import { report, summarize } from './stats.js';

// Long-term facts (issue 4 §6): recall quality on seeded synthetic users, then recall latency
// and ingest throughput in one large silo. Quality runs on the real local embedder and on a
// synthetic one; scale runs on the synthetic one (100k facts through USE-lite take many minutes).
// Every figure names its embedder. The extraction model is not involved: facts go straight into
// the pipeline that follows it (dedup probe, insert, supersession).

const QUALITY_SILOS = 20;
const SEED = 4;
const SCALES = [10_000, 100_000];
// Enough for a stable p50 and a rough p99 without the 100k stage running for many minutes.
const QUERIES = 100;
const INGEST_SAMPLE = 200;
const FILL_BATCH = 1_000;
const SUPERSEDE_SWEEP = [0.3, 0.4, 0.5];
// Statements are a minute apart and questions come a day after them: recall breaks ties by age,
// and wall-clock times (many facts in one millisecond) made the quality figures vary between runs.
const FIRST_STATEMENT_AT = Date.UTC(2026, 0, 1);
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

function synthetic(): Embedder {
  return fakeEmbedder(512, 'synthetic-bow-512');
}

/** Counts the time spent embedding, so latency can be reported without it. */
function timed(embedder: Embedder): Embedder & { spentMs: number } {
  const wrapped = {
    model: embedder.model,
    dimensions: embedder.dimensions,
    spentMs: 0,
    async embed(texts: readonly string[], signal?: AbortSignal) {
      const start = performance.now();
      try {
        return await embedder.embed(texts, signal);
      } finally {
        wrapped.spentMs += performance.now() - start;
      }
    },
  };
  return wrapped;
}

export function tempStore(label: string): { store: SqliteStore; dispose(): Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), `syndicate-bench-${label}-`));
  const store = openSqliteStore(join(dir, 'memory.db'));
  return {
    store,
    async dispose() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Embeds each distinct text once, so a threshold sweep re-runs the pipeline without re-embedding. */
export function memoized(embedder: Embedder): Embedder {
  const cache = new Map<string, Float32Array>();
  return {
    model: embedder.model,
    dimensions: embedder.dimensions,
    async embed(texts, signal) {
      const missing = [...new Set(texts.filter((text) => !cache.has(text)))];
      const vectors = await embedder.embed(missing, signal);
      missing.forEach((text, i) => cache.set(text, vectors[i]!));
      return texts.map((text) => cache.get(text)!);
    },
  };
}

function normalised(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

async function benchQuality(embedder: Embedder, supersedeThreshold: number): Promise<void> {
  const { store, dispose } = tempStore('quality');
  const silos = generateSilos(QUALITY_SILOS, SEED);
  const counts = { droppedRight: 0, droppedWrong: 0, restatements: 0, hits1: 0, hits5: 0, staleAsCurrent: 0, corrected: 0, leaked: 0, returned: 0, questions: 0, siblings: 0, siblingsRetired: 0 };
  for (const script of silos) {
    const writer: FactWriter = { facts: store.facts, embedder, silo: script.silo, dedupThreshold: calibrationFor(embedder.model).dedup, supersedeThreshold, restatedThreshold: calibrationFor(embedder.model).restated };
    const candidates: CandidateFact[] = script.statements.map((s, i) => ({
      text: s.text,
      tag: s.tag,
      date: null,
      source: 'user',
      keys: s.keys,
      provenance: null,
      createdAt: FIRST_STATEMENT_AT + i * MINUTE_MS,
    }));
    const askedAt = FIRST_STATEMENT_AT + candidates.length * MINUTE_MS + DAY_MS;
    const { outcomes } = await storeFacts(writer, candidates);
    const seen = new Set<string>();
    outcomes.forEach((outcome, i) => {
      const statement = script.statements[i]!;
      // The generator can repeat a filler word for word: that is a restatement too.
      const restated = statement.kind === 'restatement' || seen.has(normalised(statement.text));
      seen.add(normalised(statement.text));
      if (restated) counts.restatements++;
      if (outcome.kind !== 'duplicate') return;
      if (restated) counts.droppedRight++;
      else counts.droppedWrong++;
    });
    const stored = await store.facts.listFacts(script.silo);
    for (const fact of stored) {
      if (!script.statements.some((s) => s.kind === 'sibling' && s.text === fact.text)) continue;
      counts.siblings++;
      if (fact.status === 'superseded') counts.siblingsRetired++;
    }
    for (const question of script.questions) {
      counts.questions++;
      const recalled = await recallFacts({ facts: store.facts, embedder, silo: script.silo }, question.question, { now: askedAt });
      counts.returned += recalled.length;
      counts.leaked += recalled.filter((hit) => hit.fact.silo !== script.silo).length;
      const current = recalled.filter((hit) => hit.current);
      // The answer is the active fact about this attribute holding the current value.
      const answer = stored.find((fact) => fact.status === 'active' && fact.keys.includes(question.attribute) && fact.text.includes(question.currentValue));
      const rank = answer === undefined ? -1 : current.findIndex((hit) => hit.fact.id === answer.id);
      if (rank === 0) counts.hits1++;
      if (rank >= 0 && rank < 5) counts.hits5++;
      if (question.oldValues.length > 0) {
        counts.corrected++;
        const stale = current.some(
          (hit) => hit.fact.keys.includes(question.attribute) && question.oldValues.some((old) => hit.fact.text.includes(old)) && !hit.fact.text.includes(question.currentValue),
        );
        if (stale) counts.staleAsCurrent++;
      }
    }
  }
  const ratio = (part: number, whole: number, empty: number): number => (whole === 0 ? empty : part / whole);
  report(`memory quality [${embedder.model}] supersede>=${supersedeThreshold}`, {
    questions: counts.questions,
    recall_at_1: ratio(counts.hits1, counts.questions, 0),
    recall_at_5: ratio(counts.hits5, counts.questions, 0),
    superseded_as_current: ratio(counts.staleAsCurrent, counts.corrected, 0),
    wrongly_superseded: ratio(counts.siblingsRetired, counts.siblings, 0),
    cross_silo_leakage: ratio(counts.leaked, counts.returned, 0),
    dedup_precision: ratio(counts.droppedRight, counts.droppedRight + counts.droppedWrong, 1),
    dedup_recall: ratio(counts.droppedRight, counts.restatements, 1),
  });
  await dispose();
}

async function fill(store: SqliteStore, embedder: Embedder, silo: string, from: number, to: number, random: () => number): Promise<void> {
  for (let start = from; start < to; start += FILL_BATCH) {
    const texts = Array.from({ length: Math.min(FILL_BATCH, to - start) }, () => bulkFact(random));
    const vectors = await embedder.embed(texts);
    for (const [i, text] of texts.entries()) {
      await store.facts.insertFact(silo, { text, tag: 'FACT', date: null, source: 'user', keys: [text.split(' ')[4]!], provenance: null, embedding: vectors[i]!, embeddingModel: embedder.model });
    }
  }
}

async function benchScale(): Promise<void> {
  const { store, dispose } = tempStore('scale');
  const embedder = timed(synthetic());
  const random = seeded(SEED);
  const silo = 'bench-large--local';
  // A second silo of the same size would double the run; a small neighbour shows partitioning holds.
  await fill(store, embedder, 'bench-neighbour--local', 0, 1_000, random);
  let size = 0;
  for (const scale of SCALES) {
    await fill(store, embedder, silo, size, scale - INGEST_SAMPLE, random);
    // Ingest throughput: the pipeline after extraction (embed, dedup probe, insert), at this size.
    const writer: FactWriter = { facts: store.facts, embedder, silo, dedupThreshold: calibrationFor(embedder.model).dedup, supersedeThreshold: calibrationFor(embedder.model).supersede, restatedThreshold: calibrationFor(embedder.model).restated };
    const candidates: CandidateFact[] = Array.from({ length: INGEST_SAMPLE }, () => {
      const text = bulkFact(random);
      return { text, tag: 'FACT', date: null, source: 'user', keys: [text.split(' ')[4]!], provenance: null };
    });
    embedder.spentMs = 0;
    const ingestStart = performance.now();
    await storeFacts(writer, candidates);
    const ingestMs = performance.now() - ingestStart - embedder.spentMs;
    size = scale;

    const queries = Array.from({ length: QUERIES }, () => bulkQuestion(random));
    const recall: number[] = [];
    const asOf: number[] = [];
    const vector: number[] = [];
    const text: number[] = [];
    const queryVectors = await embedder.embed(queries);
    for (const [i, query] of queries.entries()) {
      embedder.spentMs = 0;
      let start = performance.now();
      await recallFacts({ facts: store.facts, embedder, silo }, query);
      recall.push(performance.now() - start - embedder.spentMs);
      // The MCP recall's as_of: every candidate, then the state of each at that moment.
      embedder.spentMs = 0;
      start = performance.now();
      await recallFacts({ facts: store.facts, embedder, silo }, query, { asOf: Date.now() });
      asOf.push(performance.now() - start - embedder.spentMs);
      start = performance.now();
      await store.facts.searchVectors(silo, { embedding: queryVectors[i]!, embeddingModel: embedder.model, limit: 10 });
      vector.push(performance.now() - start);
      start = performance.now();
      await store.facts.searchText(silo, query, 10);
      text.push(performance.now() - start);
    }
    const r = summarize(recall);
    const a = summarize(asOf);
    const v = summarize(vector);
    const t = summarize(text);
    report(`memory at ${scale} facts [${embedder.model}]`, {
      recall_p50_ms: r.median,
      recall_p99_ms: r.p99,
      recall_as_of_p50_ms: a.median,
      vector_top10_p50_ms: v.median,
      text_top10_p50_ms: t.median,
      ingest_facts_per_s: INGEST_SAMPLE / (ingestMs / 1000),
    });
  }
  await dispose();
}

export async function benchMemory(): Promise<void> {
  console.log('memory: recall and latency figures exclude query embedding; ingest excludes the extraction model call and embedding');
  for (const embedder of [memoized(synthetic()), memoized(localEmbedder())]) {
    for (const threshold of SUPERSEDE_SWEEP) await benchQuality(embedder, threshold);
  }
  await benchScale();
}
