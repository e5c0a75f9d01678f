import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { lstat, mkdir, readdir, readFile, readlink, realpath, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import type { DocumentAddress } from '../../store/documents.js';
import { contentHash } from './contentHash.js';
import type { DocumentContentStore } from './contentStore.js';
import { DocumentError } from './errors.js';
import { formatAddress } from './paths.js';

// Documents as plain markdown files, <root>/<silo>/<bundle>/<path>, readable and editable in any
// editor. Edits made outside Syndicate are noticed by content hash when documents are next read,
// listed or searched (see syncDocuments.ts).

// What identifies one version of a file without reading it (git's index does the same): a rename
// over the file changes the inode, an edit in place the modification time and usually the size.
function stampOf(stats: Stats): string {
  return `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/** Where `path` really is: symbolic links resolved, dangling ones included, for a path that need not exist yet. */
async function realLocation(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  const parent = dirname(path);
  const link = await lstat(path).then(
    (stats) => stats.isSymbolicLink(),
    (error: unknown) => (isMissing(error) ? false : Promise.reject(error)),
  );
  if (link) return realLocation(resolve(parent, await readlink(path)));
  if (parent === path) return path;
  return join(await realLocation(parent), basename(path));
}

export function fileContentStore(root: string): DocumentContentStore {
  const base = resolve(root);

  const siloDir = (silo: string): string => {
    const dir = resolve(base, silo);
    // Silo ids may be '.' or '..' as far as their character set goes; neither may leave the root.
    if (dirname(dir) !== base) throw new Error(`silo ${JSON.stringify(silo)} does not name a folder under ${base}`);
    return dir;
  };
  // Content hashes by file, valid while the file's stamp is unchanged: a sync before every search
  // then costs a stat per document instead of reading and hashing every file (measured in the report).
  const hashes = new Map<string, { stamp: string; hash: string }>();
  // Paths are checked before they get here (paths.ts), but a symbolic link inside the silo's folder
  // (made by a person, git or another program) could still lead a read, write or delete out of it.
  const fileOf = async (silo: string, address: DocumentAddress): Promise<string> => {
    const dir = siloDir(silo);
    const file = join(dir, address.bundle, ...address.path.split('/'));
    const [real, realSilo] = await Promise.all([realLocation(file), realLocation(dir)]);
    if (!real.startsWith(realSilo + sep)) {
      throw new DocumentError(`document ${formatAddress(address)} is refused: a symbolic link leads it to ${real}, outside the silo's folder ${realSilo}`);
    }
    return file;
  };

  async function markdownFiles(dir: string): Promise<string[]> {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true, recursive: true });
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    return entries
      // Dot files are editors' and our own temporary files.
      .filter((entry) => entry.isFile() && entry.name.endsWith('.md') && !entry.name.startsWith('.'))
      .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
      .sort();
  }

  async function bundles(silo: string): Promise<string[]> {
    try {
      const entries = await readdir(siloDir(silo), { withFileTypes: true });
      return entries.filter((entry) => entry.isDirectory() && !entry.name.startsWith('.')).map((entry) => entry.name).sort();
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
  }

  return {
    kind: 'files',
    async read(silo, address) {
      try {
        return await readFile(await fileOf(silo, address), 'utf8');
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async hash(silo, address) {
      const file = await fileOf(silo, address);
      let stats: Stats;
      try {
        stats = await stat(file);
      } catch (error) {
        if (!isMissing(error)) throw error;
        hashes.delete(file);
        return undefined;
      }
      const stamp = stampOf(stats);
      const cached = hashes.get(file);
      if (cached?.stamp === stamp) return cached.hash;
      // Read after the stat: a change in between leaves a newer hash under an older stamp, which the
      // next call replaces, never the reverse.
      const content = await readFile(file, 'utf8').catch((error: unknown) => (isMissing(error) ? undefined : Promise.reject(error)));
      if (content === undefined) return undefined;
      const hash = contentHash(content);
      hashes.set(file, { stamp, hash });
      return hash;
    },
    async write(silo, address, content) {
      const file = await fileOf(silo, address);
      await mkdir(dirname(file), { recursive: true });
      // Written beside the target and renamed over it, so a reader never sees half a document.
      const temporary = join(dirname(file), `.${randomBytes(6).toString('hex')}.tmp`);
      await writeFile(temporary, content, 'utf8');
      await rename(temporary, file);
      hashes.set(file, { stamp: stampOf(await stat(file)), hash: contentHash(content) });
    },
    async remove(silo, address) {
      const file = await fileOf(silo, address);
      hashes.delete(file);
      try {
        await rm(file);
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
      // Folders emptied by the delete go too, up to (not including) the bundle folder.
      const bundleDir = join(siloDir(silo), address.bundle);
      for (let dir = dirname(file); dir.startsWith(bundleDir + sep); dir = dirname(dir)) {
        try {
          await rmdir(dir);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOTEMPTY') break;
          throw error;
        }
      }
      return true;
    },
    async list(silo, bundle) {
      const names = bundle === undefined ? await bundles(silo) : [bundle];
      const result: DocumentAddress[] = [];
      for (const name of names) {
        for (const path of await markdownFiles(join(siloDir(silo), name))) result.push({ bundle: name, path });
      }
      return result;
    },
    async purge(silo) {
      const dir = siloDir(silo);
      for (const file of hashes.keys()) if (file.startsWith(dir + sep)) hashes.delete(file);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
