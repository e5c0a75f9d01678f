import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/index.js';

// Memory holds personal data: a deleted fact must not linger in the database's free pages, where
// anyone with the file (a backup, a copied laptop disk) could read it back.

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'syndicate-secure-delete-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const SECRET = 'My bank PIN is 4417 and my passport number is X99-201-553';

function fileHolds(path: string, text: string): boolean {
  return existsSync(path) && readFileSync(path).includes(Buffer.from(text));
}

describe('deleting memory', () => {
  it('leaves no copy of a deleted fact in the database file', async () => {
    const path = join(dir, 'memory.db');
    const store = openSqliteStore(path);
    const embedding = new Float32Array(8).fill(0.5);
    const fact = await store.facts.insertFact('alice--local', { text: SECRET, tag: 'FACT', date: null, source: 'user', keys: ['bank'], provenance: null, embedding, embeddingModel: 'test-8' });
    await store.facts.insertFact('alice--local', { text: 'Alice likes tea', tag: 'PREFERENCE', date: null, source: 'user', keys: ['tea'], provenance: null, embedding, embeddingModel: 'test-8' });

    await store.facts.deleteFact('alice--local', fact.id);
    await store.close();

    expect(fileHolds(path, SECRET)).toBe(false);
    expect(fileHolds(`${path}-wal`, SECRET)).toBe(false);
  });

  it('leaves no copy of a deleted fact in the database or its WAL while the store stays open', async () => {
    const path = join(dir, 'open.db');
    const store = openSqliteStore(path);
    try {
      const embedding = new Float32Array(8).fill(0.5);
      const fact = await store.facts.insertFact('bob--local', { text: SECRET, tag: 'FACT', date: null, source: 'user', keys: ['bank'], provenance: null, embedding, embeddingModel: 'test-8' });
      expect(fileHolds(`${path}-wal`, SECRET) || fileHolds(path, SECRET)).toBe(true);

      await store.facts.deleteFact('bob--local', fact.id);

      expect(fileHolds(path, SECRET)).toBe(false);
      expect(fileHolds(`${path}-wal`, SECRET)).toBe(false);
    } finally {
      await store.close();
    }
  });

  it('leaves no copy of a purged silo in the database or its WAL while the store stays open', async () => {
    const path = join(dir, 'purged.db');
    const store = openSqliteStore(path);
    try {
      const embedding = new Float32Array(8).fill(0.5);
      await store.facts.insertFact('carol--local', { text: SECRET, tag: 'FACT', date: null, source: 'user', keys: ['bank'], provenance: null, embedding, embeddingModel: 'test-8' });

      await store.facts.purgeSilo('carol--local');

      expect(fileHolds(path, SECRET)).toBe(false);
      expect(fileHolds(`${path}-wal`, SECRET)).toBe(false);
    } finally {
      await store.close();
    }
  });
});
