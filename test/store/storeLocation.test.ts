import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeStoreLocation, documentsLocation, parseStoreLocation, resolveStoreLocation, StoreLocationError } from '../../src/store/storeLocation.js';

describe('parseStoreLocation', () => {
  it('takes a plain value as a SQLite file path, resolved against the working directory', () => {
    expect(parseStoreLocation('data/syndicate.db')).toEqual({ kind: 'sqlite', path: resolve('data/syndicate.db') });
  });

  it('takes sqlite:<path> as the SQLite file at that path', () => {
    expect(parseStoreLocation('sqlite:/var/lib/syndicate.db')).toEqual({ kind: 'sqlite', path: '/var/lib/syndicate.db' });
    expect(parseStoreLocation('sqlite:rel/s.db')).toEqual({ kind: 'sqlite', path: resolve('rel/s.db') });
  });

  it('takes sqlite:///<absolute path> as the file at that absolute path', () => {
    expect(parseStoreLocation('sqlite:///var/lib/syndicate.db')).toEqual({ kind: 'sqlite', path: '/var/lib/syndicate.db' });
  });

  it('refuses sqlite: with a host or without a path', () => {
    expect(() => parseStoreLocation('sqlite://host/s.db', '--db')).toThrow(/--db "sqlite:\/\/host\/s.db" names a host/);
    expect(() => parseStoreLocation('sqlite:', '--db')).toThrow(/names no file/);
  });

  it('takes postgres:// and postgresql:// URLs as PostgreSQL, never as a path', () => {
    expect(parseStoreLocation('postgres://app@127.0.0.1:5432/syndicate')).toEqual({ kind: 'postgres', url: 'postgres://app@127.0.0.1:5432/syndicate' });
    expect(parseStoreLocation('POSTGRESQL://127.0.0.1/db')).toEqual({ kind: 'postgres', url: 'POSTGRESQL://127.0.0.1/db' });
  });

  it('refuses postgres: without // rather than taking it as a file name', () => {
    expect(() => parseStoreLocation('postgres:127.0.0.1/db', 'SYNDICATE_DB')).toThrow(/SYNDICATE_DB "postgres:127.0.0.1\/db" is not a PostgreSQL URL: write postgres:\/\//);
  });

  it('refuses a URL of a kind it does not know, naming the forms it takes', () => {
    expect(() => parseStoreLocation('mysql://127.0.0.1/db', '--db')).toThrow(StoreLocationError);
    expect(() => parseStoreLocation('mysql://127.0.0.1/db', '--db')).toThrow(/mysql: URL.*a SQLite file path, sqlite:<path>, or postgres:\/\//);
  });

  it('refuses an empty value', () => {
    expect(() => parseStoreLocation('', '--db')).toThrow(/--db is empty/);
  });

  it('takes a Windows drive letter as part of a path, not as a URL scheme', () => {
    expect(parseStoreLocation('C:\\data\\s.db').kind).toBe('sqlite');
  });
});

describe('resolveStoreLocation', () => {
  it('uses the value given before SYNDICATE_DB', () => {
    expect(resolveStoreLocation('/a.db', { SYNDICATE_DB: '/b.db' })).toEqual({ kind: 'sqlite', path: '/a.db' });
  });

  it('uses SYNDICATE_DB when no value is given, naming it in errors', () => {
    expect(resolveStoreLocation(undefined, { SYNDICATE_DB: 'sqlite:/b.db' })).toEqual({ kind: 'sqlite', path: '/b.db' });
    expect(() => resolveStoreLocation(undefined, { SYNDICATE_DB: 'redis://127.0.0.1' })).toThrow(/^SYNDICATE_DB "redis:/);
  });

  it('defaults to syndicate.db in the data directory', () => {
    expect(resolveStoreLocation(undefined, { SYNDICATE_HOME: '/home/x/syn' })).toEqual({ kind: 'sqlite', path: join('/home/x/syn', 'syndicate.db') });
  });
});

describe('describeStoreLocation', () => {
  it('hides the password of a PostgreSQL URL', () => {
    expect(describeStoreLocation({ kind: 'postgres', url: 'postgres://app:s3cret@127.0.0.1:5432/db' })).toBe('postgres://app:***@127.0.0.1:5432/db');
  });
});

describe('documentsLocation', () => {
  it('puts documents in memory/ beside the SQLite file by default', () => {
    expect(documentsLocation({ kind: 'sqlite', path: '/data/s.db' })).toEqual({ kind: 'files', dir: '/data/memory' });
  });

  it('keeps documents in the database on PostgreSQL', () => {
    expect(documentsLocation({ kind: 'postgres', url: 'postgres://127.0.0.1/db' })).toEqual({ kind: 'database' });
  });

  it('uses a configured folder on either store', () => {
    expect(documentsLocation({ kind: 'postgres', url: 'postgres://127.0.0.1/db' }, '/shared/docs')).toEqual({ kind: 'files', dir: '/shared/docs' });
    expect(documentsLocation({ kind: 'sqlite', path: '/data/s.db' }, '/shared/docs')).toEqual({ kind: 'files', dir: '/shared/docs' });
  });
});
