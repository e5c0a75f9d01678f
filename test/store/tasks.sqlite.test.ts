import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { describeTaskRecordsConformance } from './tasksConformance.js';

const dir = await mkdtemp(join(tmpdir(), 'syndicate-tasks-'));

describeTaskRecordsConformance(
  'sqlite',
  async () => openSqliteStore(join(dir, 'tasks.db')),
  () => rm(dir, { recursive: true, force: true }),
);
