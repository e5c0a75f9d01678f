import { afterAll, beforeAll } from 'vitest';
import { IN_CI } from '../inCi.js';
import { missingPostgresTools, POSTGRES_INSTALL, startPostgresCluster, type PostgresCluster } from './postgresServer.js';

// The PostgreSQL store's tests run on a throwaway cluster (postgresServer.ts). Without PostgreSQL
// and pgvector they skip with the install command on a developer machine; in CI (.ci/run installs
// both) they must run, so there they fail instead.

const missing = missingPostgresTools();
/** Whether the PostgreSQL tests run: when the tools are here, and always in CI (where missing tools fail them). */
export const POSTGRES_TESTS = missing === undefined || IN_CI;
if (!POSTGRES_TESTS) console.warn(`Skipping the PostgreSQL store tests: ${missing}. To run them: ${POSTGRES_INSTALL}`);

/** One cluster for the test file: started before its first test, stopped after its last. */
export function usePostgresCluster(): () => PostgresCluster {
  let cluster: PostgresCluster | undefined;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  }, 60_000);
  afterAll(async () => cluster?.stop());
  return () => {
    if (cluster === undefined) throw new Error('the PostgreSQL test cluster has not started');
    return cluster;
  };
}

/** A fresh database on the file's cluster (usePostgresCluster), created before the file's first test. */
export function usePostgresDatabase(): () => string {
  const cluster = usePostgresCluster();
  let url: string | undefined;
  beforeAll(async () => {
    url = await cluster().createDatabase();
  });
  return () => {
    if (url === undefined) throw new Error('the PostgreSQL test database has not been created');
    return url;
  };
}
