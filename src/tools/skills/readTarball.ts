import { gunzipSync } from 'node:zlib';

// A gzipped tar archive (.tgz), read into memory as its regular files and folders. Only what a
// skill can be made of is accepted: a link, a device, an absolute path or a path with `..` is
// refused rather than skipped, since an archive that holds one was not made as a plain skill.
// Sizes are bounded before anything is kept, the decompressed size included (a gzip bomb).

export interface TarLimits {
  /** Bytes of the decompressed archive. */
  archiveBytes: number;
  /** Files and folders. */
  entries: number;
}

export const SKILL_ARCHIVE_LIMITS: TarLimits = { archiveBytes: 64 * 1024 * 1024, entries: 1_000 };

export interface TarEntry {
  /** Relative, '/'-separated, without a leading './' or a trailing '/'. */
  path: string;
  kind: 'file' | 'folder';
  content: Buffer;
}

export type TarballRead = { ok: true; entries: TarEntry[] } | { ok: false; problem: string };

const BLOCK = 512;

const KINDS: Record<string, string> = {
  '1': 'a hard link',
  '2': 'a symbolic link',
  '3': 'a character device',
  '4': 'a block device',
  '6': 'a FIFO',
};

function text(block: Buffer, start: number, length: number): string {
  const field = block.subarray(start, start + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString('utf8');
}

function octal(block: Buffer, start: number, length: number): number | undefined {
  // Base-256 sizes (high bit set) are for files over 8 GiB: far past any limit here.
  if ((block[start]! & 0x80) !== 0) return undefined;
  const digits = text(block, start, length).trim();
  return /^[0-7]*$/.test(digits) ? parseInt(digits || '0', 8) : undefined;
}

function checksumMatches(block: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i]!;
  return octal(block, 148, 8) === sum;
}

/** The paths a pax extended header ('x') sets for the entry after it. */
function paxPath(data: Buffer): string | undefined {
  let found: string | undefined;
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space === -1) break;
    const length = Number(data.subarray(at, space).toString('utf8'));
    if (!Number.isInteger(length) || length <= 0) break;
    const record = data.subarray(space + 1, at + length - 1).toString('utf8');
    const equals = record.indexOf('=');
    if (record.slice(0, equals) === 'path') found = record.slice(equals + 1);
    at += length;
  }
  return found;
}

/** The entry's path made relative, or why it is refused. */
function safePath(raw: string): { path: string } | { problem: string } {
  if (raw.startsWith('/') || /^[A-Za-z]:/.test(raw) || raw.includes('\\')) return { problem: `'${raw}' is an absolute path (or uses '\\')` };
  const parts = raw.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.includes('..')) return { problem: `'${raw}' leads out of the archive's folder ('..')` };
  return { path: parts.join('/') };
}

/** Reads a .tgz held in memory. */
export function readTarball(gzipped: Buffer, limits: TarLimits = SKILL_ARCHIVE_LIMITS): TarballRead {
  let tar: Buffer;
  try {
    tar = gunzipSync(gzipped, { maxOutputLength: limits.archiveBytes });
  } catch (error) {
    const tooBig = (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError;
    return { ok: false, problem: tooBig ? `it unpacks to more than ${limits.archiveBytes} bytes` : `it is not gzip data (${(error as Error).message})` };
  }
  const entries: TarEntry[] = [];
  let longName: string | undefined;
  let offset = 0;
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    if (!checksumMatches(header)) return { ok: false, problem: `the block at byte ${offset} is not a tar header (bad checksum): is this a .tgz?` };
    const size = octal(header, 124, 12);
    if (size === undefined || offset + BLOCK + size > tar.length) return { ok: false, problem: `the entry at byte ${offset} has a size past the end of the archive` };
    const data = tar.subarray(offset + BLOCK, offset + BLOCK + size);
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    const type = String.fromCharCode(header[156]!);
    // Metadata for the next entry: a GNU long name, or a pax header (only its path matters here).
    if (type === 'L') {
      longName = text(data, 0, data.length);
      continue;
    }
    if (type === 'x') {
      longName = paxPath(data) ?? longName;
      continue;
    }
    if (type === 'g') continue;
    const prefix = text(header, 345, 155);
    const raw = longName ?? (prefix ? `${prefix}/${text(header, 0, 100)}` : text(header, 0, 100));
    longName = undefined;
    const kind = type === '5' ? 'folder' : type === '0' || type === '\0' || type === '7' ? 'file' : undefined;
    if (kind === undefined) return { ok: false, problem: `'${raw}' is ${KINDS[type] ?? `an entry of tar type '${type}'`}: a skill archive may hold only files and folders` };
    const safe = safePath(raw);
    if ('problem' in safe) return { ok: false, problem: safe.problem };
    if (safe.path === '') continue;
    if (entries.length >= limits.entries) return { ok: false, problem: `it holds more than ${limits.entries} files and folders` };
    entries.push({ path: safe.path, kind, content: kind === 'file' ? Buffer.from(data) : Buffer.alloc(0) });
  }
  return { ok: true, entries };
}
