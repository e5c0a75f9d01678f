import type { DocumentStorage } from '../../store/documents.js';
import { contentHash } from './contentHash.js';
import type { DocumentContentStore } from './contentStore.js';

/** Content kept in the store's database, for deployments where several machines share one store. */
export function databaseContentStore(storage: DocumentStorage): DocumentContentStore {
  return {
    kind: 'database',
    read: (silo, address) => storage.readContent(silo, address),
    hash: async (silo, address) => {
      const content = await storage.readContent(silo, address);
      return content === undefined ? undefined : contentHash(content);
    },
    write: (silo, address, content) => storage.writeContent(silo, address, content),
    remove: (silo, address) => storage.deleteContent(silo, address),
    list: (silo, bundle) => storage.listContent(silo, bundle),
    // The content rows go with the rest of the silo's document data (DocumentStorage.purgeSilo).
    purge: (silo) => storage.purgeSilo(silo),
  };
}
