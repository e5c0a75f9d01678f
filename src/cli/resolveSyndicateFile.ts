import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closestMatch } from '../config/suggest.js';
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

function yamlFilesIn(folder: string): string[] {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) return [];
  return readdirSync(folder).filter((name) => YAML_EXTENSIONS.has(extname(name).toLowerCase()));
}

/** The names `<file|name>` can take: ./syndicates/ first, then the bundled examples. */
function knownNames(): string[] {
  // examples/<name>.script.yaml are scripted-model steps beside an example, not syndicates.
  const names = [...yamlFilesIn('syndicates'), ...yamlFilesIn(EXAMPLES_DIR)].map((name) => basename(name, extname(name)));
  return [...new Set(names.filter((name) => !name.endsWith('.script')))];
}

/** An existing path is used as is; otherwise a name from ./syndicates/, then the bundled examples. */
export function resolveSyndicateFile(target: string): string {
  if (existsSync(target) && statSync(target).isDirectory()) {
    const files = yamlFilesIn(target);
    const listed = files.length > 0 ? `it holds ${files.map((name) => join(target, name)).join(', ')}` : 'it holds no .yaml files';
    throw new UsageError(`${resolve(target)} is a folder, not a syndicate file: name one file (${listed})`);
  }
  const candidates = candidatePaths(target);
  const found = candidates.find(isFile);
  if (found !== undefined) return found;
  if (candidates.length === 1) throw new UsageError(`no such file: ${resolve(target)}`);
  const names = knownNames();
  const match = closestMatch(target, names);
  const advice = match ? `Did you mean '${match}'?` : `Known names: ${names.join(', ')}.`;
  throw new UsageError(`no syndicate file or name '${target}'. ${advice} Looked for:\n${candidates.map((path) => `  ${resolve(path)}`).join('\n')}`);
}
