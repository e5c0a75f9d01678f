export { openSqliteStore, type SqliteStore, type SqliteStoreOptions } from './store.js';
