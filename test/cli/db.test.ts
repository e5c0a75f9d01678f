import { afterAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/store/postgres/index.js';
import { POSTGRES_TESTS, usePostgresCluster } from '../store/postgresCluster.js';
import { runCli, tempDir } from './cli.js';

const home = tempDir('db');
afterAll(home.remove);

describe.runIf(POSTGRES_TESTS)('syndicate db', () => {
  const cluster = usePostgresCluster();

  it('shows a new database with its migrations pending, migrates it, then reports it up to date', async () => {
    const url = await cluster().createDatabase();

    const before = await runCli(['db', 'status', '--db', url], { home: home.path });
    const migrated = await runCli(['db', 'migrate', '--db', url], { home: home.path });
    const again = await runCli(['db', 'migrate', '--db', url], { home: home.path });
    const after = await runCli(['db', 'status', '--db', url, '--json'], { home: home.path });

    expect(before.stdout).toMatch(new RegExp(`schema +version 0 of ${SCHEMA_VERSION}: ${SCHEMA_VERSION} migration\\(s\\) pending, run syndicate db migrate`));
    expect(migrated.stdout).toBe(`Migrated the schema from version 0 to ${SCHEMA_VERSION}.\n`);
    expect(again.stdout).toBe(`The schema is up to date (version ${SCHEMA_VERSION}).\n`);
    expect(JSON.parse(after.stdout)).toMatchObject({ version: SCHEMA_VERSION, latest: SCHEMA_VERSION, pgvector: '0.8.0' });
  });

  it('takes the database from SYNDICATE_DB when --db is not given', async () => {
    const url = await cluster().createDatabase();

    const result = await runCli(['db', 'migrate'], { home: home.path, env: { SYNDICATE_DB: url } });

    expect(result).toMatchObject({ code: 0, stdout: `Migrated the schema from version 0 to ${SCHEMA_VERSION}.\n` });
  });

  it('fails with the host, the port and the fix when nothing listens at the URL', async () => {
    const port = cluster().port + 1;

    const result = await runCli(['db', 'status', '--db', `postgres://postgres@127.0.0.1:${port}/x`], { home: home.path });

    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`cannot connect to PostgreSQL at 127\\.0\\.0\\.1:${port} .*start the server`));
  });
});

describe('syndicate db without a PostgreSQL URL', () => {
  it('is a usage error naming the URL it needs', async () => {
    const result = await runCli(['db', 'migrate', '--db', './syndicate.db'], { home: home.path });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain("error: syndicate db works on a PostgreSQL store: pass --db postgres://user:password@host:port/database (or set SYNDICATE_DB); './syndicate.db' is not a postgres:// URL");
  });
});
