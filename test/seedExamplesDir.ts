import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The seed examples live beside the repository (../shared/seed-examples), never copied into it.
// SYNDICATE_SHARED_DIR points elsewhere (.ci/run sets it for a clone made away from ../shared).
const shared = process.env.SYNDICATE_SHARED_DIR ?? fileURLToPath(new URL('../../shared/', import.meta.url));

export const SEED_EXAMPLES_DIR = join(shared, 'seed-examples');

if (!existsSync(SEED_EXAMPLES_DIR)) {
  throw new Error(`The seed examples are not at ${SEED_EXAMPLES_DIR}: put the shared folder beside the repository, or set SYNDICATE_SHARED_DIR to it.`);
}
