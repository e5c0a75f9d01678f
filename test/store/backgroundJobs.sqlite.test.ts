import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { describeBackgroundJobsConformance } from './backgroundJobsConformance.js';

const dir = await mkdtemp(join(tmpdir(), 'syndicate-jobs-'));

describeBackgroundJobsConformance(
  'sqlite',
  async () => openSqliteStore(join(dir, 'jobs.db')),
  () => rm(dir, { recursive: true, force: true }),
);
