import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { removeScratchDirs } from './scratchDir.js';

// Every test file gets a temp folder of its own (os.tmpdir() reads TMPDIR on each call), and fails
// if it leaves anything there: a test cleans up what it creates. Registered before the file's own
// hooks, this afterAll runs after all of them.

const parent = tmpdir();
const own = mkdtempSync(join(parent, 'file-'));
process.env.TMPDIR = own;

afterAll(() => {
  removeScratchDirs();
  const left = readdirSync(own);
  process.env.TMPDIR = parent;
  rmSync(own, { recursive: true, force: true });
  if (left.length > 0) {
    throw new Error(`this test file left ${left.join(', ')} in the temp folder: remove what a test creates in afterEach/afterAll, or use scratchDir() (test/support/scratchDir.ts)`);
  }
});
