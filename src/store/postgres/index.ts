export { type PostgresStoreOptions } from './connection.js';
export { migrate, schemaStatus, SCHEMA_VERSION, type SchemaStatus } from './schema.js';
export { openPostgresStore } from './store.js';
