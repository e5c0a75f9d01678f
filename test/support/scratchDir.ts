import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Folders for helpers that hand out a path (a database file, a YAML file) with no handle to
// clean up: each is removed when its test file ends (see perFileTmp.ts), so no caller forgets.

const created: string[] = [];

/** A fresh folder, `syndicate-<prefix>-…`, removed when the test file ends. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `syndicate-${prefix}-`));
  created.push(dir);
  return dir;
}

export function removeScratchDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}
