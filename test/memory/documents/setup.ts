import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Embedder } from '../../../src/memory/embeddings/embedder.js';
import { createDocuments, databaseContentStore, fileContentStore, type Documents } from '../../../src/memory/documents/index.js';
import type { DocumentContentStore } from '../../../src/memory/documents/contentStore.js';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqlite/index.js';
import { fakeEmbedder } from '../fakeEmbedder.js';

// A real SQLite store and real files in a temporary folder; the embedder is the deterministic fake.

export const SILO = 'handbook--local';

export interface Fixture {
  dir: string;
  /** Where the file content store keeps silos. */
  memoryDir: string;
  store: SqliteStore;
  content: DocumentContentStore;
  documents: Documents;
  /** A second Documents over the same store and content, with another embedder. */
  withEmbedder(embedder: Embedder): Documents;
  close(): Promise<void>;
}

export type ContentKind = 'files' | 'database';

export async function openFixture(kind: ContentKind = 'files', embedder: Embedder = fakeEmbedder()): Promise<Fixture> {
  const dir = await mkdtemp(join(tmpdir(), 'syndicate-documents-'));
  const memoryDir = join(dir, 'memory');
  const store = openSqliteStore(join(dir, 'syndicate.db'));
  const content = kind === 'files' ? fileContentStore(memoryDir) : databaseContentStore(store.documents);
  let clock = Date.UTC(2026, 0, 2, 3, 4, 5);
  const now = (): number => clock++;
  const withEmbedder = (other: Embedder): Documents => createDocuments({ storage: store.documents, content, embedder: other, now });
  return {
    dir,
    memoryDir,
    store,
    content,
    documents: withEmbedder(embedder),
    withEmbedder,
    async close() {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export const author = { actor: 'agent:Scribe', reason: 'keeping notes' };
