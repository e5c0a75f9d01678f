import type { Embedder } from '../../memory/embeddings/embedder.js';
import { createDocuments, fileContentStore, type Documents } from '../../memory/documents/index.js';
import { documentsDirFor } from '../../memory/openMemory.js';
import type { Store } from '../../store/store.js';

/** Actor recorded in the revisions the CLI makes. */
export const CLI_ACTOR = 'cli';

/** The silo documents as the runtime sees them: index and revisions in the store, content as files beside the database. */
export function openDocuments(store: Store, dbPath: string, embedder: Embedder): Documents {
  return createDocuments({ storage: store.documents, content: fileContentStore(documentsDirFor(dbPath)), embedder });
}
