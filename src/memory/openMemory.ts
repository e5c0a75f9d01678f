import { dirname, join } from 'node:path';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { Store } from '../store/store.js';
import { createDocuments, type Documents } from './documents/documents.js';
import { fileContentStore } from './documents/fileContentStore.js';
import type { Embedder } from './embeddings/embedder.js';
import { createFactMemory, type FactMemory } from './facts/factMemory.js';
import { createTurnMemory, type TurnMemory } from './turnMemory.js';

// Long-term memory of one silo, as a face (CLI, A2A, MCP) opens it: facts and document bundles
// over the face's store, and what each turn gets from them.

export interface Memory {
  facts: FactMemory;
  documents: Documents;
  turn: TurnMemory;
}

export interface OpenMemoryOptions {
  store: Store;
  /** Where the store's database file is: document bundles are kept as markdown files beside it. */
  dbPath: string;
  silo: string;
  embedder: Embedder;
  extractionModel: LanguageModelV3;
  extractionRules?: string;
}

/** `<folder of the database>/memory`: for the default database, the data directory's memory folder. */
export function documentsDirFor(dbPath: string): string {
  return join(dirname(dbPath), 'memory');
}

export function openMemory(options: OpenMemoryOptions): Memory {
  const { store, silo, embedder } = options;
  const facts = createFactMemory({ store, embedder, silo, model: options.extractionModel, extractionRules: options.extractionRules });
  const documents = createDocuments({ storage: store.documents, content: fileContentStore(documentsDirFor(options.dbPath)), embedder });
  return { facts, documents, turn: createTurnMemory(facts, documents) };
}
