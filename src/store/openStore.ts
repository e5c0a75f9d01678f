import { defaultDbPath } from './location.js';
import { openSqliteStore } from './sqlite/index.js';
import type { Store } from './store.js';

export interface OpenStoreOptions {
  /** A SQLite file path; defaults to defaultDbPath(env). */
  dbPath?: string;
  env?: Readonly<Record<string, string | undefined>>;
}

const POSTGRES_URL = /^postgres(ql)?:\/\//i;

export async function openStore({ dbPath, env = process.env }: OpenStoreOptions = {}): Promise<Store> {
  const target = dbPath ?? defaultDbPath(env);
  // Refused explicitly: taken as a path, the URL would silently create a file named after it.
  if (POSTGRES_URL.test(target)) throw new Error('PostgreSQL stores are not supported yet; pass a SQLite file path');
  return openSqliteStore(target);
}
