import type { DocumentStorage } from '../../store/documents.js';
import type { Embedder } from '../embeddings/embedder.js';
import type { DocumentContentStore } from './contentStore.js';

/** What every document operation works with. */
export interface DocumentsContext {
  storage: DocumentStorage;
  content: DocumentContentStore;
  embedder: Embedder;
  /** Milliseconds since the epoch (tests pin it). */
  now(): number;
}
