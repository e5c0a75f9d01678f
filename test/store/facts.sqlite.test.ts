import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { describeFactStoreConformance } from './factsConformance.js';

const dir = await mkdtemp(join(tmpdir(), 'syndicate-facts-'));

describeFactStoreConformance(
  'sqlite',
  async () => openSqliteStore(join(dir, 'facts.db')),
  () => rm(dir, { recursive: true, force: true }),
);
