import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { scratchDir } from '../support/scratchDir.js';
import Database from 'better-sqlite3';
import { load as loadSqliteVec } from 'sqlite-vec';
import { afterEach, describe, expect, it } from 'vitest';
import type { NewFact } from '../../src/store/facts.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/index.js';
import { fakeEmbedder } from '../memory/fakeEmbedder.js';
import { describeFactStoreConformance } from './factsConformance.js';

// Removed when the file ends: the conformance suite and the tests below share it.
const dir = scratchDir('facts');

describeFactStoreConformance(
  'sqlite',
  async () => openSqliteStore(join(dir, 'facts.db')),
);

// The SQLite store keeps each silo's binary codes in memory for the first pass of a vector search:
// what it holds must follow every write, its own and another process's, and a delete must leave
// no copy of the fact's vector anywhere in the file.
describe('SQLite fact vectors', () => {
  const embedder = fakeEmbedder();
  const opened: SqliteStore[] = [];
  const open = (path: string): SqliteStore => {
    const store = openSqliteStore(path);
    opened.push(store);
    return store;
  };

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });

  const freshPath = (): string => join(dir, `vectors-${randomUUID()}.db`);
  const fact = async (text: string, overrides: Partial<NewFact> = {}): Promise<NewFact> => ({
    text,
    tag: 'FACT',
    date: null,
    source: 'user',
    keys: ['home'],
    provenance: null,
    embedding: (await embedder.embed([text]))[0]!,
    embeddingModel: embedder.model,
    ...overrides,
  });
  const nearest = async (store: SqliteStore, silo: string, text: string, activeOnly = false): Promise<string[]> => {
    const [embedding] = await embedder.embed([text]);
    const hits = await store.facts.searchVectors(silo, { embedding: embedding!, embeddingModel: embedder.model, limit: 5, activeOnly });
    return hits.map((hit) => hit.fact.text);
  };
  const rowsOf = (path: string, number: number): Record<string, number> => {
    const db = new Database(path, { readonly: true });
    try {
      const count = (table: string, column: string): number =>
        db.prepare<[number], { count: number }>(`SELECT count(*) AS count FROM ${table} WHERE ${column} = ?`).get(number)!.count;
      return { codes: count('fact_codes', 'number'), embeddings: count('fact_embeddings', 'number'), text: count('fact_text', 'rowid') };
    } finally {
      db.close();
    }
  };
  const numberOf = (path: string, id: string): number => {
    const db = new Database(path, { readonly: true });
    try {
      return db.prepare<[string], { number: number }>('SELECT number FROM facts WHERE id = ?').get(id)!.number;
    } finally {
      db.close();
    }
  };

  it('finds a fact another handle on the same file wrote after this one last searched', async () => {
    const path = freshPath();
    const reader = open(path);
    const writer = open(path);
    await reader.facts.insertFact('home--local', await fact('The user lives in Paris.'));
    expect(await nearest(reader, 'home--local', 'The user keeps bees.')).toEqual(['The user lives in Paris.']);
    await writer.facts.insertFact('home--local', await fact('The user keeps bees.'));
    expect((await nearest(reader, 'home--local', 'The user keeps bees.'))[0]).toBe('The user keeps bees.');
  });

  it('stops finding a fact another handle deleted, and sees another handle’s supersession', async () => {
    const path = freshPath();
    const reader = open(path);
    const writer = open(path);
    const paris = await reader.facts.insertFact('home--local', await fact('The user lives in Paris.'));
    const bees = await reader.facts.insertFact('home--local', await fact('The user keeps bees.'));
    const correction = await reader.facts.insertFact('home--local', await fact('The user lives in Berlin.', { tag: 'CORRECTION' }));
    expect(await nearest(reader, 'home--local', 'The user lives in Paris.', true)).toHaveLength(3);
    await writer.facts.deleteFact('home--local', bees.id);
    await writer.facts.supersedeFacts('home--local', [paris.id], correction.id);
    expect(await nearest(reader, 'home--local', 'The user lives in Paris.', true)).toEqual(['The user lives in Berlin.']);
  });

  it('finds a silo refilled by another handle after it was emptied, not the facts it held before', async () => {
    const path = freshPath();
    const reader = open(path);
    const writer = open(path);
    await reader.facts.insertFact('home--local', await fact('The user lives in Paris.'));
    expect(await nearest(reader, 'home--local', 'Paris')).toEqual(['The user lives in Paris.']);
    await writer.facts.purgeSilo('home--local');
    // SQLite hands the purged fact's row number to the first new fact.
    await writer.facts.insertFact('home--local', await fact('The user plays chess.'));
    await writer.facts.insertFact('home--local', await fact('The user keeps bees.'));
    expect((await nearest(reader, 'home--local', 'Paris')).sort()).toEqual(['The user keeps bees.', 'The user plays chess.']);
  });

  it('deletes a fact’s code, float vector and text entry with it', async () => {
    const path = freshPath();
    const store = open(path);
    const gone = await store.facts.insertFact('home--local', await fact('The user lives in Paris.'));
    const number = numberOf(path, gone.id);
    expect(rowsOf(path, number)).toEqual({ codes: 1, embeddings: 1, text: 1 });
    await store.facts.deleteFact('home--local', gone.id);
    expect(rowsOf(path, number)).toEqual({ codes: 0, embeddings: 0, text: 0 });
  });

  it('purges every code and float vector of the silo', async () => {
    const path = freshPath();
    const store = open(path);
    const numbers: number[] = [];
    for (const text of ['The user lives in Paris.', 'The user keeps bees.']) {
      numbers.push(numberOf(path, (await store.facts.insertFact('home--local', await fact(text))).id));
    }
    await store.facts.purgeSilo('home--local');
    for (const number of numbers) expect(rowsOf(path, number)).toEqual({ codes: 0, embeddings: 0, text: 0 });
  });

  it('moves vectors from the vec0 tables of earlier versions when it opens the file, then drops those tables', async () => {
    const path = freshPath();
    const first = open(path);
    const stored = await first.facts.insertFact('home--local', await fact('The user lives in Paris.'));
    await first.close();
    opened.splice(0);
    // Rewrites the file as an earlier version left it: the vector in a vec0 table of its dimension.
    const db = new Database(path);
    loadSqliteVec(db);
    const number = db.prepare<[string], { number: number }>('SELECT number FROM facts WHERE id = ?').get(stored.id)!.number;
    const { embedding } = db.prepare<[number], { embedding: Buffer }>('SELECT embedding FROM fact_embeddings WHERE number = ?').get(number)!;
    db.exec(`CREATE VIRTUAL TABLE fact_vectors_${embedder.dimensions} USING vec0 (silo TEXT PARTITION KEY, embedding FLOAT[${embedder.dimensions}] DISTANCE_METRIC=cosine, tag TEXT, status TEXT)`);
    db.prepare(`INSERT INTO fact_vectors_${embedder.dimensions} (rowid, silo, embedding, tag, status) VALUES (?, 'home--local', ?, 'FACT', 'active')`).run(BigInt(number), embedding);
    db.exec('DELETE FROM fact_codes; DELETE FROM fact_embeddings;');
    db.close();

    const reopened = open(path);
    expect(await nearest(reopened, 'home--local', 'The user lives in Paris.')).toEqual(['The user lives in Paris.']);
    expect(rowsOf(path, number)).toEqual({ codes: 1, embeddings: 1, text: 1 });
    const check = new Database(path, { readonly: true });
    const legacy = check.prepare("SELECT count(*) AS count FROM sqlite_master WHERE name = ?").get(`fact_vectors_${embedder.dimensions}`) as { count: number };
    check.close();
    expect(legacy.count).toBe(0);
  });
});

// Ranking costs per matching fact, so words held by more than a thousand facts are common and
// nominate facts only together.
describe('SQLite full-text search over common words', () => {
  const embedder = fakeEmbedder();
  let store: SqliteStore | undefined;

  afterEach(async () => {
    await store?.close();
  });

  const fill = async (silo: string, texts: readonly string[]): Promise<void> => {
    store = openSqliteStore(join(dir, `common-${randomUUID()}.db`));
    const vectors = await embedder.embed(texts);
    for (const [i, text] of texts.entries()) {
      await store.facts.insertFact(silo, { text, tag: 'FACT', date: null, source: 'user', keys: ['notes'], provenance: null, embedding: vectors[i]!, embeddingModel: embedder.model });
    }
  };
  const notes = (count: number, text: string): string[] => Array.from({ length: count }, (_, i) => `Note ${i}: ${text}`);

  it('ranks the facts holding every common word of the query, and those holding a rare one', async () => {
    await fill('notes--local', [...notes(1_001, 'the garden, the meeting and the river.'), 'The garden meeting moved.', 'A zebra crossed the river.']);
    const found = await store!.facts.searchText('notes--local', 'garden meeting river zebra', 2_000);
    expect(found).toHaveLength(1_002);
    expect(found.map((hit) => hit.fact.text)).toContain('A zebra crossed the river.');
    expect(found.map((hit) => hit.fact.text)).not.toContain('The garden meeting moved.');
  });

  it('ranks the facts holding two common words of the query when none holds them all', async () => {
    await fill('notes--local', [...notes(1_001, 'the garden and the meeting.'), ...notes(1_001, 'the river.'), 'The river by the garden.']);
    const found = await store!.facts.searchText('notes--local', 'garden meeting river', 2_000);
    expect(found).toHaveLength(1_002);
    expect(found.every((hit) => hit.fact.text.includes('garden'))).toBe(true);
  });
});
