import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readTarball, SKILL_ARCHIVE_LIMITS, type TarEntry } from './readTarball.js';

// `skills add <.tgz>`: the archive's one skill folder (the folder holding its one SKILL.md),
// written to a temporary folder of the same name, from which it is checked and installed like a
// folder. The archive's other files are not part of the skill and are not written.

export type UnpackedSkill = { ok: true; dir: string; remove(): void } | { ok: false; problem: string };

const SKILL_FILE = 'SKILL.md';

export function isSkillArchive(file: string): boolean {
  return /\.(tgz|tar\.gz)$/i.test(file);
}

function skillFolderOf(entries: readonly TarEntry[]): { folder: string } | { problem: string } {
  const skillFiles = entries.filter((entry) => entry.kind === 'file' && path.posix.basename(entry.path) === SKILL_FILE);
  if (skillFiles.length === 0) return { problem: `it holds no ${SKILL_FILE}: a skill archive holds one folder with a ${SKILL_FILE}` };
  if (skillFiles.length > 1) return { problem: `it holds ${skillFiles.length} skills (${skillFiles.map((entry) => entry.path).join(', ')}): pack and add one at a time` };
  const folder = path.posix.dirname(skillFiles[0]!.path);
  if (folder === '.') return { problem: `its ${SKILL_FILE} is at the top of the archive: pack the skill's folder, named as the skill (tar -czf <name>.tgz <name>/)` };
  return { folder };
}

export function unpackSkillArchive(archive: string): UnpackedSkill {
  let gzipped: Buffer;
  try {
    // Bounded before it is read: gzip rarely shrinks a skill below a tenth.
    if (statSync(archive).size > SKILL_ARCHIVE_LIMITS.archiveBytes) return { ok: false, problem: `${archive} is larger than ${SKILL_ARCHIVE_LIMITS.archiveBytes} bytes` };
    gzipped = readFileSync(archive);
  } catch (error) {
    return { ok: false, problem: `${archive} cannot be read: ${(error as Error).message}` };
  }
  const read = readTarball(gzipped);
  if (!read.ok) return { ok: false, problem: `${archive} is refused: ${read.problem}` };
  const found = skillFolderOf(read.entries);
  if ('problem' in found) return { ok: false, problem: `${archive} is refused: ${found.problem}` };
  // Real: loadSkill reports real paths, and the caller maps them back into the archive by this prefix.
  const staging = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'syndicate-skill-')));
  const dir = path.join(staging, path.posix.basename(found.folder));
  const prefix = `${found.folder}/`;
  try {
    mkdirSync(dir);
    for (const entry of read.entries) {
      if (!entry.path.startsWith(prefix)) continue;
      // readTarball refused '..' and absolute paths, so every target is inside `dir`.
      const target = path.join(dir, ...entry.path.slice(prefix.length).split('/'));
      if (entry.kind === 'folder') mkdirSync(target, { recursive: true });
      else {
        mkdirSync(path.dirname(target), { recursive: true });
        writeFileSync(target, entry.content);
      }
    }
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    return { ok: false, problem: `${archive} could not be unpacked: ${(error as Error).message}` };
  }
  return { ok: true, dir, remove: () => rmSync(staging, { recursive: true, force: true }) };
}
