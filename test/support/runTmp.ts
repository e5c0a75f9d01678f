import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The whole run's temp folder (inherited by the workers through TMPDIR), removed at the end, so
// even a crashed test file leaves nothing in the machine's temp folder.

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'vitest-syndicate-'));
  process.env.TMPDIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
