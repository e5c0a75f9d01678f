import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

// A throwaway PostgreSQL cluster (tests and benches): initdb in a temp folder, a server on a free
// loopback port, stopped and deleted at the end. It needs Debian's postgresql-15 and pgvector
// (built by scripts/install-postgres.sh).

const PG_BIN = process.env.SYNDICATE_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const PGVECTOR_CONTROL = '/usr/share/postgresql/15/extension/vector.control';
export const POSTGRES_INSTALL = 'sudo scripts/install-postgres.sh (Debian: postgresql-15, postgresql-server-dev-15 and pgvector 0.8 from source)';

/** What is missing to start a cluster here, if anything. */
export function missingPostgresTools(): string | undefined {
  if (!existsSync(join(PG_BIN, 'pg_ctl'))) return `no PostgreSQL server binaries in ${PG_BIN}`;
  if (!existsSync(PGVECTOR_CONTROL)) return `pgvector is not installed (${PGVECTOR_CONTROL} is missing)`;
  return undefined;
}

const run = promisify(execFile);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface PostgresCluster {
  /** A URL of the cluster's `postgres` database, as its superuser. */
  readonly url: string;
  readonly port: number;
  /** Creates a fresh, empty database and returns its URL. */
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Lets other users pass through (search, not list) the folders above `dir` that keep them out: the
 * test run's and each test file's temp folders are created 0700 by root, and the server runs as
 * `postgres`. Stops at the first folder others may already pass (the system temp folder).
 */
function letOthersThrough(dir: string): void {
  for (let folder = dirname(dir); folder !== dirname(folder); folder = dirname(folder)) {
    const { mode } = statSync(folder);
    if ((mode & 0o001) !== 0) return;
    chmodSync(folder, (mode & 0o7777) | 0o001);
  }
}

/**
 * Starts a cluster. initdb and pg_ctl refuse to run as root, so as root they run as `postgres`.
 * `sharedBuffers` sizes the server's page cache (PostgreSQL's default is 128MB), e.g. '1GB'.
 */
export async function startPostgresCluster({ durable = false, sharedBuffers }: { durable?: boolean; sharedBuffers?: string } = {}): Promise<PostgresCluster> {
  const missing = missingPostgresTools();
  if (missing !== undefined) throw new Error(`cannot start PostgreSQL for the tests: ${missing}; install it with ${POSTGRES_INSTALL}`);
  const asRoot = userInfo().uid === 0;
  const dir = mkdtempSync(join(tmpdir(), 'syndicate-pg-'));
  const data = join(dir, 'data');
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
    letOthersThrough(dir);
  }
  chmodSync(dir, 0o700);
  const pgTool = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(PG_BIN, tool), ...args]) : run(join(PG_BIN, tool), args);

  const port = await freePort();
  try {
    await pgTool('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale', 'C.UTF-8']);
    // Loopback only, the socket in the temp folder. Durability is not what tests are about, so
    // unless asked (benches) the cluster skips fsync: it shares the machine with other test runs.
    const settings = [
      'listen_addresses=127.0.0.1', 'max_connections=200', ...(durable ? [] : ['fsync=off', 'full_page_writes=off']), ...(sharedBuffers === undefined ? [] : [`shared_buffers=${sharedBuffers}`]),
    ].map((setting) => `-c ${setting}`);
    await pgTool('pg_ctl', ['-D', data, '-o', `-p ${port} -k ${dir} ${settings.join(' ')}`, '-l', join(dir, 'server.log'), '-w', 'start']);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let stopped: Promise<void> | undefined;
  return {
    url,
    port,
    async createDatabase() {
      const name = `t_${randomUUID().replaceAll('-', '')}`;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    stop() {
      stopped ??= pgTool('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).then(
        () => rmSync(dir, { recursive: true, force: true }),
        (error: unknown) => {
          rmSync(dir, { recursive: true, force: true });
          throw error;
        },
      );
      return stopped;
    },
  };
}

