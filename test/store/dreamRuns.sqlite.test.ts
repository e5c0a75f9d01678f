import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { describeDreamRunsConformance } from './dreamRunsConformance.js';

const dir = await mkdtemp(join(tmpdir(), 'syndicate-dreams-'));

describeDreamRunsConformance(
  'sqlite',
  async () => openSqliteStore(join(dir, 'dreams.db')),
  () => rm(dir, { recursive: true, force: true }),
);
