// syndicate/sqlite: the embedded store (one SQLite file).

export { openSqliteStore, type SqliteStore, type SqliteStoreOptions } from '../store/sqlite/index.js';
