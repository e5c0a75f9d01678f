import { dirname, join, resolve } from 'node:path';
import { defaultDbPath } from './location.js';

// A store is named by one value (--db, SYNDICATE_DB, createPlatform's `store`): a SQLite file
// path, `sqlite:<path>`, or a `postgres://` URL. This is the one place that tells them apart, so
// nothing outside store/ knows whether the store is a file or a server.

export type StoreLocation = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

/** Where document bundles' content lives: markdown files in a folder, or rows of the store's database. */
export type DocumentsLocation = { kind: 'files'; dir: string } | { kind: 'database' };

/** The value does not name a store this build can open; the message says what to write instead. */
export class StoreLocationError extends Error {
  override readonly name = 'StoreLocationError';
}

type Env = Readonly<Record<string, string | undefined>>;

const FORMS = 'a SQLite file path, sqlite:<path>, or postgres://user@host:5432/database';
// Two letters at least: `C:\data\syndicate.db` is a Windows path, not a URL.
const SCHEME = /^([a-z][a-z0-9+.-]+):/i;

function sqlitePath(value: string, rest: string, named: string): string {
  // sqlite:///abs/path.db (the form SQLAlchemy and others write) is sqlite:/abs/path.db.
  const path = rest.startsWith('//') ? rest.slice(2) : rest;
  if (rest.startsWith('//') && !path.startsWith('/')) throw new StoreLocationError(`${named} names a host, which a SQLite file has none of: write sqlite:/absolute/path.db or sqlite:relative/path.db`);
  if (path === '') throw new StoreLocationError(`${named} names no file: write sqlite:<path>, e.g. sqlite:./syndicate.db`);
  return resolve(path);
}

function postgresUrl(value: string, rest: string, named: string): string {
  if (!rest.startsWith('//')) throw new StoreLocationError(`${named} is not a PostgreSQL URL: write postgres://user@host:5432/database`);
  try {
    new URL(value);
  } catch {
    throw new StoreLocationError(`${named} is not a valid URL: write postgres://user:password@host:5432/database (percent-encode special characters in the password)`);
  }
  return value;
}

/**
 * Parses a store's name. `source` names where it came from in errors ('--db', 'SYNDICATE_DB').
 * A relative SQLite path is resolved against the working directory. A value that looks like a URL
 * is never taken as a path: a URL of an unknown kind is refused.
 */
export function parseStoreLocation(value: string, source = 'store'): StoreLocation {
  const named = `${source} ${JSON.stringify(value)}`;
  if (value.trim() === '') throw new StoreLocationError(`${source} is empty: give ${FORMS}`);
  const scheme = SCHEME.exec(value)?.[1];
  if (scheme === undefined) return { kind: 'sqlite', path: resolve(value) };
  const rest = value.slice(scheme.length + 1);
  const kind = scheme.toLowerCase();
  if (kind === 'sqlite') return { kind: 'sqlite', path: sqlitePath(value, rest, named) };
  if (kind === 'postgres' || kind === 'postgresql') return { kind: 'postgres', url: postgresUrl(value, rest, named) };
  if (rest.startsWith('//')) throw new StoreLocationError(`${named} is a ${scheme}: URL, which names no store Syndicate knows: give ${FORMS}`);
  return { kind: 'sqlite', path: resolve(value) };
}

/** The store given, else SYNDICATE_DB, else syndicate.db in the data directory (SYNDICATE_HOME first). */
export function resolveStoreLocation(store: string | StoreLocation | undefined, env: Env = process.env): StoreLocation {
  if (typeof store === 'object') return store;
  if (store !== undefined) return parseStoreLocation(store);
  const fromEnv = env.SYNDICATE_DB;
  if (fromEnv !== undefined && fromEnv !== '') return parseStoreLocation(fromEnv, 'SYNDICATE_DB');
  return { kind: 'sqlite', path: defaultDbPath(env) };
}

/** The store as a person reads it: the file's path, or the URL without its password. */
export function describeStoreLocation(location: StoreLocation): string {
  if (location.kind === 'sqlite') return location.path;
  const url = new URL(location.url);
  if (url.password !== '') url.password = '***';
  return url.toString();
}

/**
 * A folder when one is configured; else `memory/` beside the SQLite file (for the default store,
 * the data directory's), or the database itself on PostgreSQL, where several machines share the
 * store and no folder is shared with them.
 */
export function documentsLocation(location: StoreLocation, folder?: string): DocumentsLocation {
  if (folder !== undefined) return { kind: 'files', dir: resolve(folder) };
  return location.kind === 'sqlite' ? { kind: 'files', dir: join(dirname(location.path), 'memory') } : { kind: 'database' };
}
