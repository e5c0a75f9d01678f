import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DocumentIndexUpdate, DocumentStorage, PassageInput, RevisionInput } from '../../src/store/documents.js';
import type { Store } from '../../src/store/store.js';

// The behaviour every DocumentStorage implementation must show, written against the Store so a
// PostgreSQL store can run it unchanged. Each test uses fresh silos, so data left by earlier tests
// does not matter.

function unitVector(...weights: number[]): Float32Array {
  const vector = new Float32Array(8);
  weights.forEach((weight, i) => (vector[i] = weight));
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

function passage(ordinal: number, text: string, vector: Float32Array): PassageInput {
  return { ordinal, startLine: ordinal * 10 + 1, endLine: ordinal * 10 + 5, text, searchText: `Doc\n${text}`, vector };
}

function update(path: string, overrides: Partial<DocumentIndexUpdate> = {}): DocumentIndexUpdate {
  return {
    bundle: 'notes',
    path,
    title: `Title of ${path}`,
    contentHash: `hash-${path}`,
    bytes: 100,
    embeddingModel: 'model-a',
    indexedAt: 1_700_000_000_000,
    passages: [passage(0, `passage about ${path}`, unitVector(1))],
    links: [],
    ...overrides,
  };
}

function revision(overrides: Partial<RevisionInput> = {}): RevisionInput {
  return { action: 'write', actor: 'agent:Scribe', reason: 'notes', at: 1_700_000_000_000, diff: '+x\n', content: 'x\n', ...overrides };
}

export function describeDocumentStorageConformance(name: string, open: () => Promise<Store>, cleanup: () => Promise<void> = async () => {}): void {
  describe(`${name}: document storage`, () => {
    let store: Store;
    let documents: DocumentStorage;
    let silo: string;

    beforeEach(async () => {
      store = await open();
      documents = store.documents;
      silo = `silo-${randomUUID()}`;
    });
    afterEach(async () => store.close());
    afterAll(cleanup);

    it('stores a document and lists it by bundle and path', async () => {
      await documents.commitDocument(silo, update('b.md'));
      await documents.commitDocument(silo, update('a.md'));
      await documents.commitDocument(silo, update('c.md', { bundle: 'crm' }));
      expect(await documents.getDocument(silo, { bundle: 'notes', path: 'a.md' })).toEqual({
        bundle: 'notes', path: 'a.md', title: 'Title of a.md', contentHash: 'hash-a.md', bytes: 100, embeddingModel: 'model-a', indexedAt: 1_700_000_000_000,
      });
      expect((await documents.listDocuments(silo)).map((d) => `${d.bundle}/${d.path}`)).toEqual(['crm/c.md', 'notes/a.md', 'notes/b.md']);
      expect((await documents.listDocuments(silo, 'notes')).map((d) => d.path)).toEqual(['a.md', 'b.md']);
    });

    it('keeps every silo apart', async () => {
      const other = `silo-${randomUUID()}`;
      await documents.commitDocument(other, update('secret.md', { passages: [passage(0, 'secret launch codes', unitVector(1))] }));
      expect(await documents.listDocuments(silo)).toEqual([]);
      expect(await documents.searchText(silo, { terms: ['secret'], limit: 10 })).toEqual([]);
      expect(await documents.searchVectors(silo, { vector: unitVector(1), embeddingModel: 'model-a', limit: 10 })).toEqual([]);
      const id = await documents.commitDocument(other, update('secret.md'), revision());
      expect(await documents.getRevision(silo, id!)).toBeUndefined();
    });

    it('ranks passages by cosine similarity to the query vector', async () => {
      await documents.commitDocument(silo, update('a.md', {
        passages: [passage(0, 'far', unitVector(0, 1)), passage(1, 'near', unitVector(1, 0.1)), passage(2, 'middle', unitVector(1, 1))],
      }));
      const hits = await documents.searchVectors(silo, { vector: unitVector(1), embeddingModel: 'model-a', limit: 2 });
      expect(hits.map((hit) => hit.text)).toEqual(['near', 'middle']);
      expect(hits[0]!.similarity).toBeCloseTo(0.995, 3);
      expect(hits[0]).toMatchObject({ bundle: 'notes', path: 'a.md', title: 'Title of a.md', ordinal: 1, startLine: 11, endLine: 15 });
    });

    it('compares vectors only with passages embedded by the same model, and only in the bundle asked for', async () => {
      await documents.commitDocument(silo, update('a.md', { embeddingModel: 'model-b' }));
      await documents.commitDocument(silo, update('c.md', { bundle: 'crm' }));
      expect(await documents.searchVectors(silo, { vector: unitVector(1), embeddingModel: 'model-a', limit: 5, bundle: 'notes' })).toEqual([]);
      expect(await documents.embeddingModels(silo)).toEqual(['model-a', 'model-b']);
    });

    it('finds passages containing any of the terms, best match first', async () => {
      await documents.commitDocument(silo, update('a.md', {
        passages: [passage(0, 'the budget for apollo', unitVector(1)), passage(1, 'apollo launch', unitVector(1)), passage(2, 'unrelated', unitVector(1))],
      }));
      const hits = await documents.searchText(silo, { terms: ['budget', 'apollo'], limit: 10 });
      expect(hits.map((hit) => hit.text)).toEqual(['the budget for apollo', 'apollo launch']);
    });

    it('treats full-text operators and quotes in terms as plain words', async () => {
      await documents.commitDocument(silo, update('a.md', { passages: [passage(0, 'NEAR and OR "quoted"', unitVector(1))] }));
      expect(await documents.searchText(silo, { terms: ['near', 'or', '"quoted', 'and)'], limit: 10 })).toHaveLength(1);
      expect(await documents.searchText(silo, { terms: [], limit: 10 })).toEqual([]);
    });

    it('replaces passages, links and metadata when a document is committed again', async () => {
      const target = { bundle: 'notes', path: 'b.md' };
      await documents.commitDocument(silo, update('a.md', { links: [{ to: target, label: 'old', line: 1 }] }));
      await documents.commitDocument(silo, update('a.md', {
        contentHash: 'new', passages: [passage(0, 'fresh words', unitVector(1))], links: [{ to: { bundle: 'crm', path: 'x.md' }, label: 'new', line: 3 }],
      }));
      expect((await documents.getDocument(silo, { bundle: 'notes', path: 'a.md' }))?.contentHash).toBe('new');
      expect(await documents.searchText(silo, { terms: ['passage'], limit: 10 })).toEqual([]);
      expect((await documents.searchText(silo, { terms: ['fresh'], limit: 10 })).map((hit) => hit.text)).toEqual(['fresh words']);
      expect(await documents.linksTo(silo, target)).toEqual([]);
      expect(await documents.linksFrom(silo, { bundle: 'notes', path: 'a.md' })).toEqual([
        { from: { bundle: 'notes', path: 'a.md' }, to: { bundle: 'crm', path: 'x.md' }, label: 'new', line: 3 },
      ]);
    });

    it('removes a document with its passages and outgoing links, keeping links that point at it', async () => {
      const a = { bundle: 'notes', path: 'a.md' };
      const b = { bundle: 'notes', path: 'b.md' };
      await documents.commitDocument(silo, update('a.md', { links: [{ to: b, label: 'to b', line: 1 }] }));
      await documents.commitDocument(silo, update('b.md', { links: [{ to: a, label: 'to a', line: 2 }] }));
      await documents.removeDocument(silo, a, revision({ action: 'delete', content: null }));
      expect(await documents.getDocument(silo, a)).toBeUndefined();
      expect(await documents.searchText(silo, { terms: ['a'], limit: 10 })).toEqual([]);
      expect(await documents.linksTo(silo, b)).toEqual([]);
      expect(await documents.linksTo(silo, a)).toEqual([{ from: b, to: a, label: 'to a', line: 2 }]);
      expect(await documents.listLinks(silo)).toHaveLength(1);
    });

    it('records revisions with their commit and lists them newest first', async () => {
      const address = { bundle: 'notes', path: 'a.md' };
      const first = await documents.commitDocument(silo, update('a.md'), revision({ content: 'one' }));
      const second = await documents.commitDocument(silo, update('a.md'), revision({ content: 'two', reason: 'second' }));
      const third = await documents.removeDocument(silo, address, revision({ action: 'delete', content: null, reason: 'gone' }));
      expect(first! < second! && second! < third!).toBe(true);
      expect((await documents.listRevisions(silo, address)).map((r) => [r.id, r.action, r.content])).toEqual([
        [third, 'delete', null], [second, 'write', 'two'], [first, 'write', 'one'],
      ]);
      expect(await documents.listRevisions(silo, address, 1)).toHaveLength(1);
      expect(await documents.getRevision(silo, second!)).toEqual({ id: second, ...address, ...revision({ content: 'two', reason: 'second' }) });
    });

    it('erases a document\'s earlier revisions when asked, keeping the one that records the erasure', async () => {
      const address = { bundle: 'notes', path: 'a.md' };
      const other = { bundle: 'notes', path: 'b.md' };
      await documents.commitDocument(silo, update('a.md'), revision({ content: 'private' }));
      await documents.commitDocument(silo, update('b.md'), revision({ content: 'kept' }));
      const erased = await documents.removeDocument(silo, address, revision({ action: 'delete', diff: '', content: null }), true);
      expect((await documents.listRevisions(silo, address)).map((r) => r.id)).toEqual([erased]);
      expect(await documents.listRevisions(silo, other)).toHaveLength(1);
    });

    it('commits without a revision when none is given', async () => {
      expect(await documents.commitDocument(silo, update('a.md'))).toBeUndefined();
      expect(await documents.listRevisions(silo, { bundle: 'notes', path: 'a.md' })).toEqual([]);
    });

    it('stores, lists and deletes database-backed content', async () => {
      const address = { bundle: 'notes', path: 'deep/a.md' };
      await documents.writeContent(silo, address, 'Ünïcödé 🚀\n');
      await documents.writeContent(silo, { bundle: 'crm', path: 'b.md' }, 'b');
      expect(await documents.readContent(silo, address)).toBe('Ünïcödé 🚀\n');
      expect(await documents.listContent(silo)).toEqual([{ bundle: 'crm', path: 'b.md' }, address]);
      expect(await documents.listContent(silo, 'notes')).toEqual([address]);
      expect(await documents.deleteContent(silo, address)).toBe(true);
      expect(await documents.deleteContent(silo, address)).toBe(false);
      expect(await documents.readContent(silo, address)).toBeUndefined();
    });

    it('lists silos with document data and purges one completely', async () => {
      const other = `silo-${randomUUID()}`;
      for (const s of [silo, other]) {
        await documents.commitDocument(s, update('a.md', { links: [{ to: { bundle: 'notes', path: 'b.md' }, label: 'b', line: 1 }] }), revision());
        await documents.writeContent(s, { bundle: 'notes', path: 'a.md' }, 'x');
      }
      expect(await documents.listSilos()).toEqual(expect.arrayContaining([silo, other]));
      await documents.purgeSilo(silo);
      expect(await documents.listSilos()).not.toContain(silo);
      expect(await documents.listDocuments(silo)).toEqual([]);
      expect(await documents.listLinks(silo)).toEqual([]);
      expect(await documents.listRevisions(silo, { bundle: 'notes', path: 'a.md' })).toEqual([]);
      expect(await documents.listContent(silo)).toEqual([]);
      expect(await documents.searchText(silo, { terms: ['passage'], limit: 10 })).toEqual([]);
      expect(await documents.listDocuments(other)).toHaveLength(1);
    });
  });
}
