import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSkill } from '../../../src/tools/skills/loadSkill.js';
import { readTarball } from '../../../src/tools/skills/readTarball.js';
import { unpackSkillArchive } from '../../../src/tools/skills/unpackSkill.js';
import { PDF_SKILL } from './fixtures.js';
import { tarball, type TarEntrySpec } from './tarball.js';

const dirs: string[] = [];
const removers: Array<() => void> = [];

afterEach(() => {
  for (const remove of removers.splice(0)) remove();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'syndicate-archives-'));
  dirs.push(dir);
  return dir;
}

function archiveOf(entries: readonly TarEntrySpec[]): string {
  const file = path.join(tempDir(), 'skill.tgz');
  writeFileSync(file, tarball(entries));
  return file;
}

function unpack(file: string) {
  const unpacked = unpackSkillArchive(file);
  if (unpacked.ok) removers.push(unpacked.remove);
  return unpacked;
}

const SKILL = { path: 'pdf-forms/SKILL.md', content: PDF_SKILL };

describe('unpackSkillArchive', () => {
  it('unpacks the skill folder of an archive made with tar -czf, leaving out files beside it', () => {
    const source = tempDir();
    mkdirSync(path.join(source, 'pdf-forms', 'references'), { recursive: true });
    writeFileSync(path.join(source, 'pdf-forms', 'SKILL.md'), PDF_SKILL);
    writeFileSync(path.join(source, 'pdf-forms', 'references', 'fields.md'), 'Name, date.');
    writeFileSync(path.join(source, 'README.txt'), 'not part of the skill');
    const file = path.join(source, 'pdf-forms.tgz');
    execFileSync('tar', ['-czf', file, '-C', source, 'pdf-forms', 'README.txt']);

    const unpacked = unpack(file);

    expect(unpacked.ok).toBe(true);
    const loaded = loadSkill(unpacked.ok ? unpacked.dir : '');
    expect(loaded).toMatchObject({ ok: true, skill: { name: 'pdf-forms', files: ['references/fields.md'] } });
  });

  it('reads a path longer than 100 characters from a pax header', () => {
    const source = tempDir();
    const deep = path.join('pdf-forms', 'references', 'a'.repeat(60), 'b'.repeat(60));
    mkdirSync(path.join(source, deep), { recursive: true });
    writeFileSync(path.join(source, 'pdf-forms', 'SKILL.md'), PDF_SKILL);
    writeFileSync(path.join(source, deep, 'notes.md'), 'deep');
    const file = path.join(source, 'pdf-forms.tgz');
    execFileSync('tar', ['--format=pax', '-czf', file, '-C', source, 'pdf-forms']);

    const unpacked = unpack(file);

    expect(unpacked.ok && readFileSync(path.join(unpacked.dir, 'references', 'a'.repeat(60), 'b'.repeat(60), 'notes.md'), 'utf8')).toBe('deep');
  });

  it('accepts the skill folder below a top folder', () => {
    const unpacked = unpack(archiveOf([{ path: 'package/pdf-forms/SKILL.md', content: PDF_SKILL }]));

    expect(unpacked.ok && path.basename(unpacked.dir)).toBe('pdf-forms');
  });

  it.each([
    ['a symbolic link', { path: 'pdf-forms/secrets', type: '2', link: '/etc/passwd' }, "'pdf-forms/secrets' is a symbolic link: a skill archive may hold only files and folders"],
    ['a hard link', { path: 'pdf-forms/secrets', type: '1', link: 'pdf-forms/SKILL.md' }, "'pdf-forms/secrets' is a hard link"],
    ['a device', { path: 'pdf-forms/tty', type: '3' }, "'pdf-forms/tty' is a character device"],
    ['an absolute path', { path: '/etc/cron.d/job', content: 'x' }, "'/etc/cron.d/job' is an absolute path"],
    ['a path that leaves the folder', { path: 'pdf-forms/../../escape.sh', content: 'x' }, "'pdf-forms/../../escape.sh' leads out of the archive's folder ('..')"],
  ])('refuses an archive holding %s, writing nothing', (_what, entry, problem) => {
    const unpacked = unpack(archiveOf([SKILL, entry]));

    expect(unpacked).toEqual({ ok: false, problem: expect.stringContaining(problem) });
    expect(readdirSync(os.tmpdir()).filter((name) => name.startsWith('syndicate-skill-'))).toEqual([]);
  });

  it('refuses an archive with no SKILL.md, with two, or with one at its top', () => {
    expect(unpack(archiveOf([{ path: 'pdf-forms/notes.md', content: 'x' }]))).toEqual({ ok: false, problem: expect.stringContaining('it holds no SKILL.md') });
    expect(unpack(archiveOf([SKILL, { path: 'other/SKILL.md', content: 'x' }]))).toEqual({ ok: false, problem: expect.stringContaining('it holds 2 skills (pdf-forms/SKILL.md, other/SKILL.md)') });
    expect(unpack(archiveOf([{ path: 'SKILL.md', content: PDF_SKILL }]))).toEqual({ ok: false, problem: expect.stringContaining('is at the top of the archive') });
  });

  it('refuses a file that is not gzip, and gzip that is not tar', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'plain.tgz'), 'just text');
    writeFileSync(path.join(dir, 'text.tgz'), gzipSync(Buffer.from('just text, zipped')));

    expect(unpack(path.join(dir, 'plain.tgz'))).toEqual({ ok: false, problem: expect.stringContaining('it is not gzip data') });
    expect(unpack(path.join(dir, 'text.tgz'))).toEqual({ ok: false, problem: expect.stringContaining('it holds no SKILL.md') });
  });
});

describe('readTarball', () => {
  it('refuses an archive that unpacks to more than its size limit', () => {
    const bomb = tarball([{ path: 'pdf-forms/zeros', content: Buffer.alloc(200_000) }]);

    expect(readTarball(bomb, { archiveBytes: 100_000, entries: 10 })).toEqual({ ok: false, problem: 'it unpacks to more than 100000 bytes' });
  });

  it('refuses an archive with more entries than its limit', () => {
    const many = tarball(Array.from({ length: 5 }, (_, i) => ({ path: `pdf-forms/f${i}`, content: 'x' })));

    expect(readTarball(many, { archiveBytes: 1_000_000, entries: 4 })).toEqual({ ok: false, problem: 'it holds more than 4 files and folders' });
  });

  it('refuses a block whose checksum is wrong', () => {
    const tar = Buffer.alloc(1536);
    tar.write('pdf-forms/SKILL.md', 0);

    expect(readTarball(gzipSync(tar))).toEqual({ ok: false, problem: 'the block at byte 0 is not a tar header (bad checksum): is this a .tgz?' });
  });
});

