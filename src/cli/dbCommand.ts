import { isPostgresUrl } from '../store/location.js';
import { ExitCode } from './exitCodes.js';
import type { DbOptions } from './options.js';
import { UsageError } from './usageError.js';

// `syndicate db migrate` and `syndicate db status`: the schema of a PostgreSQL store. A SQLite file
// needs neither: it brings its schema up to date whenever it is opened.

const write = (text: string): void => void process.stdout.write(text);

function postgresUrl(options: DbOptions, env: NodeJS.ProcessEnv): string {
  const url = options.db ?? env.SYNDICATE_DB;
  if (url === undefined || !isPostgresUrl(url)) {
    throw new UsageError(
      `syndicate db works on a PostgreSQL store: pass --db postgres://user:password@host:port/database (or set SYNDICATE_DB)` +
        `${url === undefined ? '' : `; '${url}' is not a postgres:// URL`}. A SQLite file brings its schema up to date when it is opened.`,
    );
  }
  return url;
}

export async function dbMigrateCommand(options: DbOptions, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const url = postgresUrl(options, env);
  const { migrate } = await import('../store/postgres/index.js');
  const { from, to } = await migrate(url);
  if (options.json) write(`${JSON.stringify({ from, to })}\n`);
  else write(from === to ? `The schema is up to date (version ${to}).\n` : `Migrated the schema from version ${from} to ${to}.\n`);
  return ExitCode.ok;
}

export async function dbStatusCommand(options: DbOptions, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const url = postgresUrl(options, env);
  const { schemaStatus } = await import('../store/postgres/index.js');
  const status = await schemaStatus(url);
  if (options.json) {
    write(`${JSON.stringify(status)}\n`);
    return ExitCode.ok;
  }
  const schema =
    status.version > status.latest
      ? `version ${status.version}, newer than this syndicate supports (${status.latest}): upgrade syndicate`
      : status.version < status.latest
        ? `version ${status.version} of ${status.latest}: ${status.latest - status.version} migration(s) pending, run syndicate db migrate`
        : `version ${status.version} (up to date)`;
  write(`server    PostgreSQL ${status.server}\npgvector  ${status.pgvector ?? 'not created yet (syndicate db migrate creates it)'}\nschema    ${schema}\n`);
  return ExitCode.ok;
}
