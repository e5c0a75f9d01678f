import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// A fresh project that installs the packed package the way a user's would: `npm ci` from a
// lockfile, so it works offline from npm's cache here and from the registry in CI. The lockfile
// is this repository's, less its dev-only packages: the consumer gets exactly the versions
// tested here, and nothing a dev dependency would have hidden (a missing @types package).

export const REPO = fileURLToPath(new URL('../../', import.meta.url));

interface LockEntry {
  version?: string;
  dev?: boolean;
  devOptional?: boolean;
  [field: string]: unknown;
}

interface Lockfile {
  packages: Record<string, LockEntry>;
}

interface Manifest {
  name: string;
  version: string;
  license: string;
  dependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, unknown>;
  bin: Record<string, string>;
  engines: Record<string, string>;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

/** `npm pack` of the built package (scripts off: the test must not rebuild it) into `dir`; the tarball's path. */
export function packPackage(dir: string): string {
  if (!existsSync(join(REPO, 'dist', 'index.d.ts'))) throw new Error('dist/ has no index.d.ts: run `npm run build` before this test');
  const output = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: REPO, encoding: 'utf8', env: envFor(dir) });
  const [packed] = JSON.parse(output) as Array<{ filename: string }>;
  if (!packed) throw new Error(`npm pack printed no file: ${output}`);
  return join(dir, packed.filename);
}

/** The consumer's own packages (installed beside syndicate), at the versions this repository locks. */
const CONSUMER_DEPENDENCIES = ['zod', '@ai-sdk/provider'];
const CONSUMER_DEV_DEPENDENCIES = ['typescript', '@types/node'];

function lockedVersions(lock: Lockfile, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    names.map((name) => {
      const version = lock.packages[`node_modules/${name}`]?.version;
      if (!version) throw new Error(`package-lock.json has no ${name}`);
      return [name, version];
    }),
  );
}

/** Creates the project in `dir` with the tarball as its dependency, and installs it. */
export function createConsumerProject(dir: string, tarball: string): void {
  const lock = readJson<Lockfile>(join(REPO, 'package-lock.json'));
  const manifest = readJson<Manifest>(join(REPO, 'package.json'));
  const spec = `file:${tarball}`;
  const dependencies = { syndicate: spec, ...lockedVersions(lock, CONSUMER_DEPENDENCIES) };
  const devDependencies = lockedVersions(lock, CONSUMER_DEV_DEPENDENCIES);
  const kept = new Set(CONSUMER_DEV_DEPENDENCIES.map((name) => `node_modules/${name}`));
  const packages: Record<string, LockEntry> = {
    '': { name: 'consumer', version: '1.0.0', dependencies, devDependencies },
    'node_modules/syndicate': {
      version: manifest.version,
      resolved: spec,
      integrity: `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`,
      license: manifest.license,
      dependencies: manifest.dependencies,
      peerDependencies: manifest.peerDependencies,
      peerDependenciesMeta: manifest.peerDependenciesMeta,
      bin: manifest.bin,
      engines: manifest.engines,
    },
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '' || (entry.dev && !kept.has(path))) continue;
    const { dev: _dev, devOptional: _devOptional, ...rest } = entry;
    packages[path] = rest;
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module', dependencies, devDependencies }, null, 2));
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: false, types: ['node'], lib: ['ES2023'], outDir: 'out', rootDir: 'src' },
      include: ['src'],
    }),
  );
  // --ignore-scripts: better-sqlite3's install script would compile the addon for a minute; its
  // build from this checkout (same Node) is copied instead, below.
  execFileSync('npm', ['ci', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir, encoding: 'utf8', stdio: 'pipe', env: envFor(dir) });
  const addon = join('better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
  mkdirSync(join(dir, 'node_modules', 'better-sqlite3', 'build', 'Release'), { recursive: true });
  copyFileSync(join(REPO, 'node_modules', addon), join(dir, 'node_modules', addon));
}

/**
 * The environment of the programs run for a project in `dir`: whatever they store by default stays
 * there (removed with it). That includes Node's module compile cache, which tsc turns on: from
 * Node 22 it goes to the system temp folder unless told otherwise.
 */
function envFor(dir: string): NodeJS.ProcessEnv {
  const { SYNDICATE_DB: _db, ...env } = process.env;
  return { ...env, SYNDICATE_HOME: join(dir, 'home'), NODE_COMPILE_CACHE: join(dir, 'node-compile-cache') };
}

/** Runs a command in the project, never throwing: the caller asserts on the result. */
export function runIn(dir: string, command: string, args: readonly string[]): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd: dir, encoding: 'utf8', env: envFor(dir) });
}
