import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { defaultDbPath, isPostgresUrl } from '../store/location.js';
import type { Store } from '../store/store.js';

/** The store sessions live in: --db when given (a SQLite path or a postgres:// URL), else the per-user default (SYNDICATE_HOME first). */
export function dbPathFor(option: string | undefined, env: NodeJS.ProcessEnv): string {
  if (option === undefined) return defaultDbPath(env);
  return isPostgresUrl(option) ? option : resolve(option);
}

/** The store is imported on first use: the native SQLite binding is not needed for validate or --help. */
export async function openSessionStore(dbPath: string): Promise<Store> {
  const { openStore } = await import('../store/openStore.js');
  return openStore({ dbPath });
}

/** Reading commands must not create an empty database as a side effect. */
export async function openExistingStore(dbPath: string): Promise<Store | undefined> {
  return isPostgresUrl(dbPath) || existsSync(dbPath) ? openSessionStore(dbPath) : undefined;
}
