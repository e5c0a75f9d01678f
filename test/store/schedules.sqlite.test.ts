import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { describeSchedulesConformance } from './schedulesConformance.js';

const dir = await mkdtemp(join(tmpdir(), 'syndicate-schedules-'));

describeSchedulesConformance(
  'sqlite',
  async () => openSqliteStore(join(dir, 'schedules.db')),
  () => rm(dir, { recursive: true, force: true }),
);
