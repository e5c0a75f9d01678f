import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The seed examples live beside the repository (../shared/seed-examples), never copied into it.
// A clone made elsewhere finds them beside the repository it was cloned from; SYNDICATE_SHARED_DIR
// names the shared folder outright.
const repo = fileURLToPath(new URL('../', import.meta.url));

function originRepository(): string | undefined {
  try {
    const url = execFileSync('git', ['config', '--get', 'remote.origin.url'], { cwd: repo, encoding: 'utf8' }).trim();
    return existsSync(url) ? url : undefined;
  } catch {
    // Not a git checkout, or no origin: only ../shared is looked at.
    return undefined;
  }
}

function sharedDir(): string {
  if (process.env.SYNDICATE_SHARED_DIR) return process.env.SYNDICATE_SHARED_DIR;
  const beside = resolve(repo, '..', 'shared');
  if (existsSync(beside)) return beside;
  const origin = originRepository();
  return origin === undefined ? beside : resolve(origin, '..', 'shared');
}

export const SEED_EXAMPLES_DIR = join(sharedDir(), 'seed-examples');

if (!existsSync(SEED_EXAMPLES_DIR)) {
  throw new Error(`The seed examples are not at ${SEED_EXAMPLES_DIR}: put the shared folder beside the repository, or set SYNDICATE_SHARED_DIR to it.`);
}
