import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { describeUserRecordsConformance } from './usersConformance.js';

const dir = await mkdtemp(join(tmpdir(), 'syndicate-users-'));

describeUserRecordsConformance(
  'sqlite',
  async () => openSqliteStore(join(dir, 'users.db')),
  () => rm(dir, { recursive: true, force: true }),
);
