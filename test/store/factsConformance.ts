import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmbeddingModelMismatchError, type FactRecord, type FactStore, type ListFactsOptions, type NewFact } from '../../src/store/facts.js';
import type { Store } from '../../src/store/store.js';
import { seeded } from '../../bench/memoryData.js';
import { fakeEmbedder } from '../memory/fakeEmbedder.js';

// The behaviour every FactStore must show, written against the Store interface so the PostgreSQL
// implementation runs it unchanged. `open` returns a store over the same persistent data each
// time; every test uses fresh silos, so data left by earlier tests does no harm.

const embedder = fakeEmbedder();


function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  a.forEach((x, i) => {
    dot += x * b[i]!;
    normA += x * x;
    normB += b[i]! * b[i]!;
  });
  return dot / Math.sqrt(normA * normB);
}

function freshSilo(): string {
  return `silo-${randomUUID()}`;
}

async function newFact(text: string, overrides: Partial<NewFact> = {}): Promise<NewFact> {
  const [embedding] = await embedder.embed([text]);
  return {
    text,
    tag: 'FACT',
    date: null,
    source: 'user',
    keys: ['home'],
    provenance: { sessionId: 'session-1', turnId: 'turn-1' },
    embedding: embedding!,
    embeddingModel: embedder.model,
    ...overrides,
  };
}

export function describeFactStoreConformance(name: string, open: () => Promise<Store>, cleanup?: () => Promise<void>): void {
  describe(`FactStore conformance: ${name}`, () => {
    let store: Store;
    let facts: FactStore;

    beforeEach(async () => {
      store = await open();
      facts = store.facts;
    });

    afterEach(async () => {
      await store.close();
    });

    if (cleanup) afterAll(cleanup);

    it('stores a fact as active and reads it back with every field', async () => {
      const silo = freshSilo();
      const stored = await facts.insertFact(silo, await newFact('The user lives in Paris.', { date: '2026-03-01', keys: ['Home', 'paris'], createdAt: 1_700_000_000_000 }));
      expect(stored).toStrictEqual({
        id: stored.id,
        silo,
        text: 'The user lives in Paris.',
        tag: 'FACT',
        date: '2026-03-01',
        source: 'user',
        keys: ['home', 'paris'],
        status: 'active',
        supersededBy: null,
        restates: null,
        subject: null,
        attribute: null,
        provenance: { sessionId: 'session-1', turnId: 'turn-1' },
        embeddingModel: 'fake-bow-256',
        createdAt: 1_700_000_000_000,
        updatedAt: stored.updatedAt,
      });
      expect(await facts.getFact(silo, stored.id)).toStrictEqual(stored);
    });

    it('refuses every call without a valid silo', async () => {
      await expect(facts.insertFact('', await newFact('x'))).rejects.toThrow(/valid silo id is required/);
      await expect(facts.listFacts(undefined as unknown as string)).rejects.toThrow(/valid silo id is required/);
      await expect(facts.searchText('a b', 'x', 5)).rejects.toThrow(/valid silo id is required/);
      await expect(facts.purgeSilo('../other')).rejects.toThrow(/valid silo id is required/);
    });

    it('finds facts by vector similarity, nearest first, with cosine similarity as the score', async () => {
      const silo = freshSilo();
      await facts.insertFact(silo, await newFact('The user lives in Paris.'));
      await facts.insertFact(silo, await newFact('The user owns a red bicycle.'));
      const [query] = await embedder.embed(['Where does the user live? Paris?']);
      const found = await facts.searchVectors(silo, { embedding: query!, embeddingModel: embedder.model, limit: 2 });
      expect(found.map((hit) => hit.fact.text)).toEqual(['The user lives in Paris.', 'The user owns a red bicycle.']);
      expect(found[0]!.score).toBeGreaterThan(found[1]!.score);
      expect(found[0]!.score).toBeLessThanOrEqual(1);
    });

    it('ranks by exact cosine similarity among many facts, also where the signs of the vectors would rank otherwise', async () => {
      const silo = freshSilo();
      const random = seeded(7);
      const dimensions = embedder.dimensions;
      const query = Float32Array.from({ length: dimensions }, () => random() * 2 - 1);
      // One sign away from the query but nearly identical to it, against the same signs as the
      // query with other magnitudes: a comparison of signs alone puts the second first.
      const weakest = query.reduce((best, x, i) => (Math.abs(x) < Math.abs(query[best]!) ? i : best), 0);
      const nearlyQuery = query.map((x, i) => (i === weakest ? -x : x));
      const sameSigns = query.map((x) => Math.sign(x) * random());
      const vectors = [nearlyQuery, sameSigns, ...Array.from({ length: 1_000 }, () => Float32Array.from({ length: dimensions }, () => random() * 2 - 1))];
      const ids: string[] = [];
      for (const [i, embedding] of vectors.entries()) ids.push((await facts.insertFact(silo, await newFact(`fact ${i}`, { embedding }))).id);
      const found = await facts.searchVectors(silo, { embedding: query, embeddingModel: embedder.model, limit: 10 });
      expect(found.slice(0, 2).map((hit) => hit.fact.id)).toEqual([ids[0], ids[1]]);
      expect(found[0]!.score).toBeCloseTo(cosine(query, nearlyQuery), 5);
      expect(found[1]!.score).toBeCloseTo(cosine(query, sameSigns), 5);
      expect(found.map((hit) => hit.score)).toEqual([...found.map((hit) => hit.score)].sort((a, b) => b - a));
    });

    it('gives an identical text a vector similarity of 1', async () => {
      const silo = freshSilo();
      const fact = await newFact('The user lives in Paris.');
      await facts.insertFact(silo, fact);
      const [hit] = await facts.searchVectors(silo, { embedding: fact.embedding, embeddingModel: embedder.model, limit: 1 });
      expect(hit!.score).toBeCloseTo(1, 5);
    });

    it('filters vector search by tag and by active status', async () => {
      const silo = freshSilo();
      const old = await facts.insertFact(silo, await newFact('The user lives in Paris.'));
      await facts.insertFact(silo, await newFact('The user prefers living in Paris.', { tag: 'PREFERENCE' }));
      const correction = await facts.insertFact(silo, await newFact('The user lives in Berlin now.', { tag: 'CORRECTION' }));
      await facts.supersedeFacts(silo, [old.id], correction.id);
      const [query] = await embedder.embed(['The user lives in Paris.']);
      const search = (options: { tag?: 'FACT' | 'PREFERENCE'; activeOnly?: boolean }) =>
        facts.searchVectors(silo, { embedding: query!, embeddingModel: embedder.model, limit: 10, ...options }).then((hits) => hits.map((hit) => hit.fact.text));
      expect(await search({ tag: 'FACT' })).toEqual(['The user lives in Paris.']);
      expect(await search({ tag: 'FACT', activeOnly: true })).toEqual([]);
      expect(await search({ tag: 'PREFERENCE', activeOnly: true })).toEqual(['The user prefers living in Paris.']);
    });

    it('finds facts by any word of the query in their text or keys, best match first', async () => {
      const silo = freshSilo();
      await facts.insertFact(silo, await newFact('The user drinks green tea every morning.', { keys: ['tea'] }));
      await facts.insertFact(silo, await newFact('The user lives in Paris.', { keys: ['home'] }));
      await facts.insertFact(silo, await newFact('The meeting moved to Friday.', { keys: ['meeting'] }));
      await facts.insertFact(silo, await newFact('The user drinks tea.', { keys: ['drinks'] }));
      const found = await facts.searchText(silo, 'What tea in the morning?', 10);
      expect(found.map((hit) => hit.fact.text)).toEqual(['The user drinks green tea every morning.', 'The user drinks tea.']);
      expect(found[0]!.score).toBeGreaterThan(found[1]!.score);
      expect((await facts.searchText(silo, 'home', 10)).map((hit) => hit.fact.text)).toEqual(['The user lives in Paris.']);
    });

    it('ignores words that would match most facts: function words and "user"', async () => {
      const silo = freshSilo();
      await facts.insertFact(silo, await newFact('The user is in the garden.'));
      expect(await facts.searchText(silo, 'Where is the user?', 10)).toEqual([]);
      expect(await facts.searchText(silo, 'the garden', 10)).toHaveLength(1);
    });

    it('reads FTS operators in a text query as plain words', async () => {
      const silo = freshSilo();
      await facts.insertFact(silo, await newFact('NEAR the AND gate, OR not.'));
      expect(await facts.searchText(silo, 'NEAR( "AND" * OR -', 10)).toHaveLength(1);
      expect(await facts.searchText(silo, '?!', 10)).toEqual([]);
    });

    it('never returns another silo’s facts from any read', async () => {
      const mine = freshSilo();
      const theirs = freshSilo();
      const secret = await facts.insertFact(theirs, await newFact('The other user lives in Paris.'));
      await facts.insertFact(mine, await newFact('I keep bees.', { keys: ['bees'] }));
      expect(await facts.getFact(mine, secret.id)).toBeUndefined();
      expect((await facts.listFacts(mine)).map((fact) => fact.text)).toEqual(['I keep bees.']);
      expect(await facts.searchText(mine, 'Paris', 10)).toEqual([]);
      const vectorHits = await facts.searchVectors(mine, { embedding: (await newFact('The other user lives in Paris.')).embedding, embeddingModel: embedder.model, limit: 10 });
      expect(vectorHits.map((hit) => hit.fact.silo)).toEqual([mine]);
      expect(await facts.deleteFact(mine, secret.id)).toBe(false);
      expect(await facts.supersedeFacts(mine, [secret.id], 'x')).toBe(0);
      expect((await facts.getFact(theirs, secret.id))?.status).toBe('active');
    });

    it('lists a silo’s facts newest first, optionally by status and with a limit', async () => {
      const silo = freshSilo();
      const first = await facts.insertFact(silo, await newFact('one', { createdAt: 1 }));
      await facts.insertFact(silo, await newFact('two', { createdAt: 2 }));
      const third = await facts.insertFact(silo, await newFact('three', { createdAt: 3 }));
      await facts.supersedeFacts(silo, [first.id], third.id);
      expect((await facts.listFacts(silo)).map((fact) => fact.text)).toEqual(['three', 'two', 'one']);
      expect((await facts.listFacts(silo, { status: 'superseded' })).map((fact) => fact.text)).toEqual(['one']);
      expect((await facts.listFacts(silo, { limit: 1 })).map((fact) => fact.text)).toEqual(['three']);
    });

    it('filters a listing by tag, by text ignoring case, by the correction that retired them and by the fact they restate', async () => {
      const silo = freshSilo();
      const paris = await facts.insertFact(silo, await newFact('The user lives in Paris.', { createdAt: 1 }));
      const tea = await facts.insertFact(silo, await newFact('The user prefers TEA.', { tag: 'PREFERENCE', createdAt: 2 }));
      const home = await facts.insertFact(silo, await newFact("The user's home is in Paris.", { restates: paris.id, createdAt: 3 }));
      const berlin = await facts.insertFact(silo, await newFact('The user moved to Berlin.', { tag: 'CORRECTION', createdAt: 4 }));
      await facts.supersedeFacts(silo, [paris.id], berlin.id);
      const ids = (options: ListFactsOptions) => facts.listFacts(silo, options).then((listed) => listed.map((fact) => fact.id));
      expect(await ids({ tag: 'PREFERENCE' })).toEqual([tea.id]);
      expect(await ids({ text: 'paris' })).toEqual([home.id, paris.id]);
      expect(await ids({ text: 'tea.' })).toEqual([tea.id]);
      expect(await ids({ text: '%' })).toEqual([]);
      expect(await ids({ supersededBy: berlin.id })).toEqual([paris.id]);
      expect(await ids({ restates: paris.id })).toEqual([home.id]);
      expect(await ids({ text: 'user', tag: 'FACT', status: 'superseded' })).toEqual([paris.id]);
    });

    it('pages a listing after a position, facts of the same moment in the order they were stored, newest first', async () => {
      const silo = freshSilo();
      const stored: FactRecord[] = [];
      for (const [text, createdAt] of [['a', 1], ['b', 2], ['c', 2], ['d', 2], ['e', 3]] as const) stored.push(await facts.insertFact(silo, await newFact(text, { createdAt })));
      const texts = (options: ListFactsOptions) => facts.listFacts(silo, options).then((listed) => listed.map((fact) => fact.text));
      const at = (index: number) => ({ createdAt: stored[index]!.createdAt, id: stored[index]!.id });
      expect(await texts({ limit: 2 })).toEqual(['e', 'd']);
      expect(await texts({ after: at(3), limit: 2 })).toEqual(['c', 'b']);
      expect(await texts({ after: at(1) })).toEqual(['a']);
      await facts.deleteFact(silo, stored[2]!.id);
      expect(await texts({ after: at(2) })).toEqual(['d', 'b', 'a']);
    });

    it('corrects an active fact: the replacement is stored active and the fact is kept, superseded by it', async () => {
      const silo = freshSilo();
      const old = await facts.insertFact(silo, await newFact('The user lives in Paris.'));
      const replacement = await facts.correctFact(silo, old.id, await newFact('The user lives in Lyon.', { keys: ['home', 'lyon'], provenance: null }));
      expect(replacement).toMatchObject({ status: 'active', text: 'The user lives in Lyon.', keys: ['home', 'lyon'], supersededBy: null, restates: null });
      expect(await facts.getFact(silo, old.id)).toMatchObject({ status: 'superseded', supersededBy: replacement!.id, text: 'The user lives in Paris.' });
      const [query] = await embedder.embed(['The user lives in Lyon.']);
      const active = await facts.searchVectors(silo, { embedding: query!, embeddingModel: embedder.model, limit: 10, activeOnly: true });
      expect(active.map((hit) => hit.fact.id)).toEqual([replacement!.id]);
    });

    it('refuses to correct a fact that is not active, or not in the silo, and stores nothing', async () => {
      const silo = freshSilo();
      const old = await facts.insertFact(silo, await newFact('The user lives in Paris.'));
      const first = await facts.correctFact(silo, old.id, await newFact('The user lives in Lyon.'));
      expect(await facts.correctFact(silo, old.id, await newFact('The user lives in Rome.'))).toBeUndefined();
      expect(await facts.correctFact(freshSilo(), first!.id, await newFact('The user lives in Rome.'))).toBeUndefined();
      expect((await facts.listFacts(silo)).map((fact) => fact.text).sort()).toEqual(['The user lives in Lyon.', 'The user lives in Paris.']);
    });

    it('supersedes a fact by linking it to the correction, keeping it as history', async () => {
      const silo = freshSilo();
      const old = await facts.insertFact(silo, await newFact('The user lives in Paris.'));
      const correction = await facts.insertFact(silo, await newFact('The user moved to Berlin.', { tag: 'CORRECTION' }));
      expect(await facts.supersedeFacts(silo, [old.id], correction.id)).toBe(1);
      const retired = await facts.getFact(silo, old.id);
      expect(retired).toMatchObject({ status: 'superseded', supersededBy: correction.id, text: 'The user lives in Paris.' });
      expect(retired!.updatedAt).toBeGreaterThanOrEqual(old.updatedAt);
      expect(await facts.supersedeFacts(silo, [old.id], correction.id)).toBe(0);
    });

    it('keeps the subject and attribute a fact was stored with', async () => {
      const silo = freshSilo();
      const stored = await facts.insertFact(silo, await newFact('The apartment rent is 1,200 euros.', { subject: 'apartment', attribute: 'rent' }));
      expect(await facts.getFact(silo, stored.id)).toMatchObject({ subject: 'apartment', attribute: 'rent' });
    });

    it('keeps a merged restatement as its own record linked to the fact it restates, searchable but never active', async () => {
      const silo = freshSilo();
      const primary = await facts.insertFact(silo, await newFact('The user lives in Paris.'));
      const merged = await facts.insertFact(silo, await newFact("The user's home is in Paris.", { restates: primary.id, provenance: { sessionId: 'session-2', turnId: 'turn-7' } }));
      expect(merged).toMatchObject({ status: 'merged', restates: primary.id, text: "The user's home is in Paris.", provenance: { sessionId: 'session-2', turnId: 'turn-7' } });
      const [query] = await embedder.embed(["The user's home is in Paris."]);
      const search = (activeOnly: boolean) =>
        facts.searchVectors(silo, { embedding: query!, embeddingModel: embedder.model, limit: 10, activeOnly }).then((hits) => hits.map((hit) => hit.fact.id));
      expect(await search(false)).toContain(merged.id);
      expect(await search(true)).toEqual([primary.id]);
      expect((await facts.searchText(silo, 'home', 10)).map((hit) => hit.fact.id)).toContain(merged.id);
    });

    it('unmerges a merged restatement into an active primary fact, and refuses anything else', async () => {
      const silo = freshSilo();
      const primary = await facts.insertFact(silo, await newFact('The user owes Tom 20 dollars.'));
      const merged = await facts.insertFact(silo, await newFact('The user owes Clara 20 dollars.', { restates: primary.id }));
      const unmerged = await facts.unmergeFact(silo, merged.id);
      expect(unmerged).toMatchObject({ id: merged.id, status: 'active', restates: null, text: 'The user owes Clara 20 dollars.' });
      expect(await facts.getFact(silo, merged.id)).toStrictEqual(unmerged);
      const [query] = await embedder.embed(['The user owes Clara 20 dollars.']);
      const active = await facts.searchVectors(silo, { embedding: query!, embeddingModel: embedder.model, limit: 10, activeOnly: true });
      expect(active.map((hit) => hit.fact.id).sort()).toEqual([primary.id, merged.id].sort());
      expect(await facts.unmergeFact(silo, merged.id)).toBeUndefined();
      expect(await facts.unmergeFact(silo, primary.id)).toBeUndefined();
      expect(await facts.unmergeFact(freshSilo(), merged.id)).toBeUndefined();
    });

    it('deletes a fact with its vector and its text entry', async () => {
      const silo = freshSilo();
      const kept = await facts.insertFact(silo, await newFact('The user keeps bees.', { keys: ['bees'] }));
      const gone = await facts.insertFact(silo, await newFact('The user lives in Paris.'));
      expect(await facts.deleteFact(silo, gone.id)).toBe(true);
      expect(await facts.getFact(silo, gone.id)).toBeUndefined();
      expect(await facts.searchText(silo, 'Paris', 10)).toEqual([]);
      const hits = await facts.searchVectors(silo, { embedding: (await newFact('The user lives in Paris.')).embedding, embeddingModel: embedder.model, limit: 10 });
      expect(hits.map((hit) => hit.fact.id)).toEqual([kept.id]);
      expect(await facts.deleteFact(silo, gone.id)).toBe(false);
    });

    it('purges a whole silo: facts, vectors, text entries and ingestion marks, and nothing of other silos', async () => {
      const silo = freshSilo();
      const other = freshSilo();
      await facts.insertFact(silo, await newFact('The user lives in Paris.'));
      await facts.insertFact(silo, await newFact('The user keeps bees.'));
      await facts.insertFact(other, await newFact('The user lives in Paris.'));
      await facts.setIngestedThrough(silo, 'session-1', 12);
      expect(await facts.purgeSilo(silo)).toBe(2);
      expect(await facts.listFacts(silo)).toEqual([]);
      expect(await facts.searchText(silo, 'Paris bees', 10)).toEqual([]);
      expect(await facts.searchVectors(silo, { embedding: (await newFact('The user lives in Paris.')).embedding, embeddingModel: embedder.model, limit: 10 })).toEqual([]);
      expect(await facts.ingestedThrough(silo, 'session-1')).toBe(0);
      expect(await facts.siloEmbeddingModel(silo)).toBeUndefined();
      expect(await facts.listFacts(other)).toHaveLength(1);
    });

    it('lists silos with their fact counts and embedding model', async () => {
      const silo = freshSilo();
      const old = await facts.insertFact(silo, await newFact('one'));
      const correction = await facts.insertFact(silo, await newFact('two', { tag: 'CORRECTION' }));
      await facts.supersedeFacts(silo, [old.id], correction.id);
      expect((await facts.listSilos()).find((summary) => summary.silo === silo)).toStrictEqual({ silo, facts: 2, active: 1, embeddingModel: 'fake-bow-256' });
    });

    it('refuses to store or search a silo with a different embedding model, naming the reembed command', async () => {
      const silo = freshSilo();
      await facts.insertFact(silo, await newFact('The user lives in Paris.'));
      const other = fakeEmbedder(256, 'other-model');
      const [vector] = await other.embed(['Paris']);
      const mismatch = new RegExp(`'fake-bow-256'.*'other-model'.*syndicate memory reembed --silo ${silo}`);
      await expect(facts.insertFact(silo, { ...(await newFact('x')), embedding: vector!, embeddingModel: 'other-model' })).rejects.toThrow(mismatch);
      await expect(facts.searchVectors(silo, { embedding: vector!, embeddingModel: 'other-model', limit: 5 })).rejects.toBeInstanceOf(EmbeddingModelMismatchError);
    });

    it('refuses a search whose vector has another dimension than the silo holds from its model', async () => {
      const silo = freshSilo();
      await facts.insertFact(silo, await newFact('The user lives in Paris.'));
      const [narrow] = await fakeEmbedder(128, 'fake-bow-256').embed(['Paris']);
      await expect(facts.searchVectors(silo, { embedding: narrow!, embeddingModel: 'fake-bow-256', limit: 5 })).rejects.toThrow(/returned 128 dimensions, but silo .* holds 256-dimensional vectors/);
      await expect(facts.searchVectors(silo, { embedding: new Float32Array(20_000), embeddingModel: 'fake-bow-256', limit: 5 })).rejects.toThrow(/returned 20000 dimensions/);
      expect(await facts.searchVectors(freshSilo(), { embedding: narrow!, embeddingModel: 'fake-bow-256', limit: 5 })).toEqual([]);
    });

    it('re-embeds a silo with another model, keeping tags and statuses', async () => {
      const silo = freshSilo();
      const old = await facts.insertFact(silo, await newFact('The user lives in Paris.'));
      const correction = await facts.insertFact(silo, await newFact('The user moved to Berlin.', { tag: 'CORRECTION' }));
      await facts.supersedeFacts(silo, [old.id], correction.id);
      const next = fakeEmbedder(64, 'next-model');
      const vectors = await next.embed([old.text, correction.text]);
      await facts.replaceEmbeddings(silo, 'next-model', new Map([[old.id, vectors[0]!], [correction.id, vectors[1]!]]));
      expect(await facts.siloEmbeddingModel(silo)).toBe('next-model');
      expect((await facts.getFact(silo, old.id))?.embeddingModel).toBe('next-model');
      const [query] = await next.embed(['The user lives in Paris.']);
      const active = await facts.searchVectors(silo, { embedding: query!, embeddingModel: 'next-model', limit: 5, activeOnly: true });
      expect(active.map((hit) => hit.fact.id)).toEqual([correction.id]);
      await expect(facts.searchVectors(silo, { embedding: (await newFact('x')).embedding, embeddingModel: embedder.model, limit: 5 })).rejects.toThrow(/reembed/);
    });

    it('refuses a re-embedding that misses a fact and leaves the silo as it was', async () => {
      const silo = freshSilo();
      const fact = await facts.insertFact(silo, await newFact('The user lives in Paris.'));
      await facts.insertFact(silo, await newFact('The user keeps bees.'));
      const [vector] = await fakeEmbedder(64, 'next-model').embed(['x']);
      await expect(facts.replaceEmbeddings(silo, 'next-model', new Map([[fact.id, vector!]]))).rejects.toThrow(/one vector per fact: 2 facts, 1 vectors/);
      expect(await facts.siloEmbeddingModel(silo)).toBe('fake-bow-256');
    });

    it('lets an emptied silo start again with another embedding model', async () => {
      const silo = freshSilo();
      const only = await facts.insertFact(silo, await newFact('x'));
      await facts.deleteFact(silo, only.id);
      const [vector] = await fakeEmbedder(64, 'next-model').embed(['y']);
      await facts.insertFact(silo, { ...(await newFact('y')), embedding: vector!, embeddingModel: 'next-model' });
      expect(await facts.siloEmbeddingModel(silo)).toBe('next-model');
    });

    it('keeps the ingestion mark per silo and session across reopening', async () => {
      const silo = freshSilo();
      expect(await facts.ingestedThrough(silo, 'session-a')).toBe(0);
      await facts.setIngestedThrough(silo, 'session-a', 7);
      await facts.setIngestedThrough(silo, 'session-b', 3);
      await store.close();
      store = await open();
      facts = store.facts;
      expect(await facts.ingestedThrough(silo, 'session-a')).toBe(7);
      expect(await facts.ingestedThrough(silo, 'session-b')).toBe(3);
      expect(await facts.ingestedThrough(freshSilo(), 'session-a')).toBe(0);
    });
  });
}
