import { defaultDbPath } from './location.js';
import type { Durability } from './sqlite/connection.js';
import { openSqliteStore } from './sqlite/index.js';
import type { Store } from './store.js';

export interface OpenStoreOptions {
  /** A SQLite file path; defaults to defaultDbPath(env). */
  dbPath?: string;
  env?: Readonly<Record<string, string | undefined>>;
}

const POSTGRES_URL = /^postgres(ql)?:\/\//i;

/** SYNDICATE_DURABILITY: `fsync` makes every acknowledged write survive power loss; unset, a process crash. */
export function durabilityOf(env: Readonly<Record<string, string | undefined>>): Durability {
  const value = env.SYNDICATE_DURABILITY;
  if (value === undefined || value === '' || value === 'write') return 'write';
  if (value === 'fsync') return 'fsync';
  throw new Error(`SYNDICATE_DURABILITY is '${value}': set it to 'fsync' (writes survive power loss) or 'write' (the default: they survive the process dying)`);
}

export async function openStore({ dbPath, env = process.env }: OpenStoreOptions = {}): Promise<Store> {
  const target = dbPath ?? defaultDbPath(env);
  // Refused explicitly: taken as a path, the URL would silently create a file named after it.
  if (POSTGRES_URL.test(target)) throw new Error('PostgreSQL stores are not supported yet; pass a SQLite file path');
  return openSqliteStore(target, { durability: durabilityOf(env) });
}
