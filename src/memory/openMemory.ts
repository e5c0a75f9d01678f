import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { Store } from '../store/store.js';
import { createDocuments, type Documents } from './documents/documents.js';
import type { DocumentContentStore } from './documents/contentStore.js';
import type { Embedder } from './embeddings/embedder.js';
import { createFactMemory, type FactMemory } from './facts/factMemory.js';
import { createTurnMemory, type TurnMemory } from './turnMemory.js';

// Long-term memory of one silo, as the platform (src/platform) opens it for a face: facts and
// document bundles over the store, and what each turn gets from them.

export interface Memory {
  facts: FactMemory;
  documents: Documents;
  turn: TurnMemory;
}

export interface OpenMemoryOptions {
  store: Store;
  /** Where the documents' content lives (files or the database): the platform decides from the store's configuration. */
  content: DocumentContentStore;
  silo: string;
  embedder: Embedder;
  extractionModel: LanguageModelV3;
  extractionRules?: string;
}

export function openMemory(options: OpenMemoryOptions): Memory {
  const { store, silo, embedder } = options;
  const facts = createFactMemory({ store, embedder, silo, model: options.extractionModel, extractionRules: options.extractionRules });
  const documents = createDocuments({ storage: store.documents, content: options.content, embedder });
  return { facts, documents, turn: createTurnMemory(facts, documents) };
}
