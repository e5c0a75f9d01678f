import { defaultDbPath, isPostgresUrl } from './location.js';
import { openSqliteStore } from './sqlite/index.js';
import type { Store } from './store.js';

export interface OpenStoreOptions {
  /** A SQLite file path or a postgres:// (postgresql://) URL; defaults to defaultDbPath(env). */
  dbPath?: string;
  env?: Readonly<Record<string, string | undefined>>;
}


export async function openStore({ dbPath, env = process.env }: OpenStoreOptions = {}): Promise<Store> {
  const target = dbPath ?? defaultDbPath(env);
  if (isPostgresUrl(target)) {
    // Loaded only for a PostgreSQL URL, so SQLite users never load pg.
    const { openPostgresStore } = await import('./postgres/index.js');
    return openPostgresStore(target);
  }
  return openSqliteStore(target);
}
