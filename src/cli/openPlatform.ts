import { a2aRemoteAgents } from '../a2a/client/index.js';
import { createPlatform, type Platform } from '../platform/createPlatform.js';
import type { Store } from '../store/store.js';
import { parseStoreLocation } from '../store/storeLocation.js';

/** A command's platform: its store is --db when given, else SYNDICATE_DB, else the per-user default. */
export function openPlatform(db: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<Platform> {
  return createPlatform({ store: db === undefined ? undefined : parseStoreLocation(db, '--db'), env, a2aClient: a2aRemoteAgents });
}

/** Runs `use` with the store when it exists already (reading commands must not create one), and the store's name for a person. */
export async function withExistingStore<T>(db: string | undefined, use: (store: Store | undefined, storeName: string) => Promise<T>): Promise<T> {
  const platform = await openPlatform(db);
  try {
    return await use(await platform.existingStore(), platform.storeName);
  } finally {
    await platform.close();
  }
}

/** Runs `use` with the store, creating it when it does not exist yet (writing commands). */
export async function withStore<T>(db: string | undefined, use: (store: Store, storeName: string) => Promise<T>): Promise<T> {
  const platform = await openPlatform(db);
  try {
    return await use(await platform.store(), platform.storeName);
  } finally {
    await platform.close();
  }
}
