import { existsSync } from 'node:fs';
import { openSqliteStore } from './sqlite/index.js';
import type { Store } from './store.js';
import { describeStoreLocation, parseStoreLocation, StoreLocationError, type StoreLocation } from './storeLocation.js';

function locationOf(store: string | StoreLocation): StoreLocation {
  return typeof store === 'string' ? parseStoreLocation(store) : store;
}

/** Opens the store, creating it when it does not exist. */
export async function openStore(store: string | StoreLocation): Promise<Store> {
  const location = locationOf(store);
  if (location.kind === 'sqlite') return openSqliteStore(location.path);
  throw new StoreLocationError(`${describeStoreLocation(location)}: PostgreSQL stores are not available in this build yet; name a SQLite file instead (a path or sqlite:<path>)`);
}

/** Undefined when there is no such store yet: reading commands must not create an empty one as a side effect. */
export async function openExistingStore(store: string | StoreLocation): Promise<Store | undefined> {
  const location = locationOf(store);
  if (location.kind === 'sqlite' && !existsSync(location.path)) return undefined;
  return openStore(location);
}
