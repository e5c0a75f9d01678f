import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { describeDocumentStorageConformance } from './documentsConformance.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'syndicate-sqlite-documents-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describeDocumentStorageConformance('sqlite', async () => openSqliteStore(join(dir, 'conformance.db')));

function passageInput(ordinal: number, text: string) {
  return { ordinal, startLine: 1, endLine: 1, text, searchText: text, vector: new Float32Array([1, 0, 0]) };
}

describe('SQLite document storage', () => {
  it('leaves no full-text rows behind when passages are replaced or a silo is purged', async () => {
    const path = join(dir, 'fts.db');
    const store = openSqliteStore(path);
    const update = {
      bundle: 'notes', path: 'a.md', title: 'A', contentHash: 'h', bytes: 1, embeddingModel: 'm', indexedAt: 1,
      passages: [passageInput(0, 'one'), passageInput(1, 'two')], links: [],
    };
    await store.documents.commitDocument('s1', update);
    await store.documents.commitDocument('s1', { ...update, passages: [passageInput(0, 'three')] });
    const raw = new Database(path, { readonly: true });
    const count = (): number => (raw.prepare('SELECT count(*) AS n FROM document_passages_fts').get() as { n: number }).n;
    expect(count()).toBe(1);
    await store.documents.purgeSilo('s1');
    expect(count()).toBe(0);
    raw.close();
    await store.close();
  });
});
