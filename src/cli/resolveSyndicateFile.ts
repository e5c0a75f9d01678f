import { existsSync, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from './usageError.js';

// Found from this module's location, not the cwd, so bundled examples work from any directory:
// src/cli/ and dist/cli/ both sit two levels below the package root.
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

const EXAMPLES_DIR = join(PACKAGE_ROOT, 'examples');

const YAML_EXTENSIONS: ReadonlySet<string> = new Set(['.yaml', '.yml']);

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

/** Something written as a path (a separator or a YAML extension) is never looked up as a name. */
function looksLikePath(target: string): boolean {
  return target.includes('/') || target.includes(sep) || YAML_EXTENSIONS.has(extname(target).toLowerCase());
}

/**
 * Where a `<file|name>` argument may point, in the order they are tried. Paths stay relative to the
 * cwd as typed, so issues point at the file the way the user named it.
 */
function candidatePaths(target: string): string[] {
  if (looksLikePath(target)) return [target];
  return [target, join('syndicates', `${target}.yaml`), join('syndicates', `${target}.yml`), join(EXAMPLES_DIR, `${target}.yaml`)];
}

/** An existing path is used as is; otherwise a name from ./syndicates/, then the bundled examples. */
export function resolveSyndicateFile(target: string): string {
  const candidates = candidatePaths(target);
  const found = candidates.find(isFile);
  if (found !== undefined) return found;
  if (candidates.length === 1) throw new UsageError(`no such file: ${resolve(target)}`);
  throw new UsageError(`no syndicate file or name '${target}'. Looked for:\n${candidates.map((path) => `  ${resolve(path)}`).join('\n')}`);
}
