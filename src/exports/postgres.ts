// syndicate/postgres: the server store (PostgreSQL >= 15 with pgvector >= 0.8), shared by several processes.

export { migrate, openPostgresStore, schemaStatus, SCHEMA_VERSION, type PostgresStoreOptions, type SchemaStatus } from '../store/postgres/index.js';
