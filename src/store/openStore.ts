import { defaultDbPath, isPostgresUrl } from './location.js';
import type { Durability } from './sqlite/connection.js';
import { openSqliteStore } from './sqlite/index.js';
import type { Store } from './store.js';

export interface OpenStoreOptions {
  /** A SQLite file path or a postgres:// (postgresql://) URL; defaults to defaultDbPath(env). */
  dbPath?: string;
  env?: Readonly<Record<string, string | undefined>>;
}

/** SYNDICATE_DURABILITY: `fsync` makes every acknowledged write survive power loss; unset, a process crash. */
export function durabilityOf(env: Readonly<Record<string, string | undefined>>): Durability {
  const value = env.SYNDICATE_DURABILITY;
  if (value === undefined || value === '' || value === 'write') return 'write';
  if (value === 'fsync') return 'fsync';
  throw new Error(`SYNDICATE_DURABILITY is '${value}': set it to 'fsync' (writes survive power loss) or 'write' (the default: they survive the process dying)`);
}

export async function openStore({ dbPath, env = process.env }: OpenStoreOptions = {}): Promise<Store> {
  const target = dbPath ?? defaultDbPath(env);
  if (isPostgresUrl(target)) {
    // Loaded only for a PostgreSQL URL, so SQLite users never load pg.
    const { openPostgresStore } = await import('./postgres/index.js');
    return openPostgresStore(target);
  }
  return openSqliteStore(target, { durability: durabilityOf(env) });
}
