import { afterEach, describe, expect, it } from 'vitest';
import { findDuplicateGroups } from '../../src/cli/memory/findDuplicates.js';
import type { FactRecord, FactTag } from '../../src/store/facts.js';
import type { SqliteStore } from '../../src/store/sqlite/index.js';
import { fakeEmbedder } from '../memory/fakeEmbedder.js';
import { tempStore } from '../memory/facts/helpers.js';

// What `memory dupes` groups, on a real SQLite store with the fake bag-of-words embedder: texts of
// ten distinct words that share nine score 0.9, sharing eight 0.8.

const SILO = 'dupes--local';
const embedder = fakeEmbedder();
const words = (from: number): string => Array.from({ length: 10 }, (_, i) => `w${from + i}`).join(' ');

let store: SqliteStore | undefined;
afterEach(async () => store?.close());

async function add(text: string, createdAt: number, tag: FactTag = 'FACT'): Promise<FactRecord> {
  const [embedding] = await embedder.embed([text]);
  return store!.facts.insertFact(SILO, { text, tag, date: null, source: 'user', keys: ['k'], provenance: null, embedding: embedding!, embeddingModel: embedder.model, createdAt });
}

const ids = (groups: Awaited<ReturnType<typeof findDuplicateGroups>>): string[][] => groups.map((group) => group.facts.map((fact) => fact.id));

describe('findDuplicateGroups', () => {
  it('groups each fact with the later facts that are similar to it, oldest first', async () => {
    store = tempStore();
    const first = await add(words(1), 1_000);
    const restated = await add(words(1), 2_000);
    await add(words(50), 3_000);
    const groups = await findDuplicateGroups(store.facts, embedder, SILO, 0.93);
    expect(ids(groups)).toEqual([[first.id, restated.id]]);
    expect(groups[0]!.similarity).toBeCloseTo(1, 5);
  });

  it('does not chain facts that are each similar to a neighbour but not to each other', async () => {
    store = tempStore();
    const a = await add(words(1), 1_000);
    const b = await add(words(2), 2_000);
    await add(words(3), 3_000);
    expect(ids(await findDuplicateGroups(store.facts, embedder, SILO, 0.85))).toEqual([[a.id, b.id]]);
  });

  it('never groups facts with different tags or superseded facts', async () => {
    store = tempStore();
    await add(words(1), 1_000);
    await add(words(1), 2_000, 'EPISODE');
    const correction = await add(words(1), 3_000, 'CORRECTION');
    const retired = await add(words(1), 500, 'CORRECTION');
    await store.facts.supersedeFacts(SILO, [retired.id], correction.id);
    expect(ids(await findDuplicateGroups(store.facts, embedder, SILO, 0.93))).toEqual([]);
  });
});
