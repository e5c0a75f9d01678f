import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';

/**
 * Loads `<cwd>/.env` into `env` without overriding variables that are already set.
 * Returns the path loaded, or undefined when there is no such file.
 */
export function loadDotEnv(cwd: string = process.cwd(), env: NodeJS.ProcessEnv = process.env): string | undefined {
  const path = join(cwd, '.env');
  let content: string;
  try {
    content = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  for (const [name, value] of Object.entries(parseEnv(content))) {
    if (env[name] === undefined && value !== undefined) env[name] = value;
  }
  return path;
}
