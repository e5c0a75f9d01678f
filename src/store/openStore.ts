import { existsSync } from 'node:fs';
import type { Durability } from './sqlite/connection.js';
import { openSqliteStore } from './sqlite/index.js';
import type { Store } from './store.js';
import { parseStoreLocation, type StoreLocation } from './storeLocation.js';

function locationOf(store: string | StoreLocation): StoreLocation {
  return typeof store === 'string' ? parseStoreLocation(store) : store;
}

/** SYNDICATE_DURABILITY: `fsync` makes every acknowledged write survive power loss; unset, a process crash. */
export function durabilityOf(env: Readonly<Record<string, string | undefined>>): Durability {
  const value = env.SYNDICATE_DURABILITY;
  if (value === undefined || value === '' || value === 'write') return 'write';
  if (value === 'fsync') return 'fsync';
  throw new Error(`SYNDICATE_DURABILITY is '${value}': set it to 'fsync' (writes survive power loss) or 'write' (the default: they survive the process dying)`);
}

/** Opens the store, creating it when it does not exist. */
export async function openStore(store: string | StoreLocation, env: Readonly<Record<string, string | undefined>> = process.env): Promise<Store> {
  const location = locationOf(store);
  if (location.kind === 'postgres') {
    // Loaded only for a PostgreSQL URL, so SQLite users never load pg.
    const { openPostgresStore } = await import('./postgres/index.js');
    return openPostgresStore(location.url, { durability: durabilityOf(env) });
  }
  return openSqliteStore(location.path, { durability: durabilityOf(env) });
}

/** Undefined when there is no such store yet: reading commands must not create an empty one as a side effect. */
export async function openExistingStore(store: string | StoreLocation, env: Readonly<Record<string, string | undefined>> = process.env): Promise<Store | undefined> {
  const location = locationOf(store);
  if (location.kind === 'sqlite' && !existsSync(location.path)) return undefined;
  return openStore(location, env);
}
