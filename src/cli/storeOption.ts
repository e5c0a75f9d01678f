// --db, as every command with a store takes it. Only commander loads with it: program.ts imports it.
export const DB_OPTION = '--db <store>';
export const DB_HELP = 'the store: a SQLite file path, sqlite:<path> or postgres://… (default: $SYNDICATE_DB, else syndicate.db in $SYNDICATE_HOME or the per-user data directory)';
