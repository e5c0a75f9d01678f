import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { describeSessionNotesConformance } from './notesConformance.js';

const dir = await mkdtemp(join(tmpdir(), 'syndicate-notes-'));

describeSessionNotesConformance(
  'sqlite',
  async () => openSqliteStore(join(dir, 'notes.db')),
  () => rm(dir, { recursive: true, force: true }),
);
