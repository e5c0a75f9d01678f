import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tarball } from '../tools/skills/tarball.js';
import { runCli, tempDir } from './cli.js';

const dir = tempDir('skills');
afterAll(dir.remove);

function skillAt(root: string, name: string, skillMd: string): string {
  const folder = join(root, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'SKILL.md'), skillMd);
  return folder;
}

describe('syndicate skills', () => {
  it('validates a skill folder and prints its name and content hash', async () => {
    const folder = skillAt(join(dir.path, 'loose'), 'pdf-forms', '---\nname: pdf-forms\ndescription: Fills in PDF forms.\n---\nBody\n');

    const result = await runCli(['skills', 'validate', folder], { home: dir.path });

    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ok {2}pdf-forms {2}sha256:[0-9a-f]{64}\n$/);
  });

  it('refuses a skill whose name differs from its folder, with file:line:col', async () => {
    const folder = skillAt(join(dir.path, 'loose'), 'forms', '---\nname: pdf-forms\ndescription: Fills in PDF forms.\n---\nBody\n');

    const result = await runCli(['skills', 'validate', folder], { home: dir.path });

    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`${join(folder, 'SKILL.md')}:2:7 name: 'pdf-forms' must equal the skill's folder name, 'forms'`);
  });

  it("lists the project's skills, then the user's", async () => {
    const project = join(dir.path, 'project');
    skillAt(join(project, '.agents', 'skills'), 'release-notes', '---\nname: release-notes\ndescription: Writes release notes.\n---\nBody\n');
    skillAt(join(dir.path, '.agents', 'skills'), 'pdf-forms', '---\nname: pdf-forms\ndescription: Fills in PDF forms.\n---\nBody\n');

    const result = await runCli(['skills', 'list'], { home: dir.path, cwd: project });

    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^project .*\n {2}release-notes: Writes release notes\.\nuser .*\n {2}pdf-forms: Fills in PDF forms\.\n$/);
  });

  it('shows the tools a skill lists in allowed-tools', async () => {
    const project = join(dir.path, 'allowed');
    skillAt(join(project, '.agents', 'skills'), 'git-log', '---\nname: git-log\ndescription: Reads history.\nallowed-tools: Bash(git log:*) read_skill_file\n---\nBody\n');

    const result = await runCli(['skills', 'list'], { home: join(dir.path, 'nobody'), cwd: project });

    expect(result.stdout).toContain('  git-log: Reads history.\n    allowed tools: Bash(git log:*) read_skill_file\n');
  });

  it("adds a skill to the project's .agents/skills/ and pins its content hash in the lockfile", async () => {
    const project = join(dir.path, 'adding');
    mkdirSync(project, { recursive: true });
    const folder = skillAt(join(dir.path, 'download'), 'pdf-forms', '---\nname: pdf-forms\ndescription: Fills in PDF forms.\n---\nBody\n');

    const result = await runCli(['skills', 'add', folder], { home: dir.path, cwd: project });

    expect(result.code).toBe(0);
    const lock = JSON.parse(readFileSync(join(project, '.agents', 'skills.lock.json'), 'utf8'));
    expect(lock).toEqual({ version: 1, skills: { 'pdf-forms': { hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) } } });
    expect(result.stdout).toContain(`added  pdf-forms  ${lock.skills['pdf-forms'].hash}`);
    expect(readFileSync(join(project, '.agents', 'skills', 'pdf-forms', 'SKILL.md'), 'utf8')).toContain('Fills in PDF forms.');
  });

  it("adds the skill folder of a .tgz to the project's .agents/skills/ and pins the hash its files have there", async () => {
    const project = join(dir.path, 'from-archive');
    mkdirSync(project, { recursive: true });
    const source = join(dir.path, 'packing');
    skillAt(source, 'pdf-forms', '---\nname: pdf-forms\ndescription: Fills in PDF forms.\n---\nBody\n');
    mkdirSync(join(source, 'pdf-forms', 'scripts'));
    writeFileSync(join(source, 'pdf-forms', 'scripts', 'fill.js'), 'return input;');
    const archive = join(dir.path, 'pdf-forms.tgz');
    execFileSync('tar', ['-czf', archive, '-C', source, 'pdf-forms']);

    const result = await runCli(['skills', 'add', archive], { home: dir.path, cwd: project });
    const validated = await runCli(['skills', 'validate', join(project, '.agents', 'skills', 'pdf-forms')], { home: dir.path });

    expect(result.code).toBe(0);
    const lock = JSON.parse(readFileSync(join(project, '.agents', 'skills.lock.json'), 'utf8'));
    expect(validated.stdout).toBe(`ok  pdf-forms  ${lock.skills['pdf-forms'].hash}\n`);
    expect(readFileSync(join(project, '.agents', 'skills', 'pdf-forms', 'scripts', 'fill.js'), 'utf8')).toBe('return input;');
  });

  it('refuses a .tgz holding a symbolic link, installing nothing', async () => {
    const project = join(dir.path, 'linked-archive');
    mkdirSync(project, { recursive: true });
    const archive = join(dir.path, 'linked.tgz');
    writeFileSync(archive, tarball([{ path: 'pdf-forms/SKILL.md', content: '---\nname: pdf-forms\ndescription: d\n---\n' }, { path: 'pdf-forms/key', type: '2', link: '/etc/passwd' }]));

    const result = await runCli(['skills', 'add', archive], { home: dir.path, cwd: project });

    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`error: ${archive} is refused: 'pdf-forms/key' is a symbolic link: a skill archive may hold only files and folders\n`);
    expect(existsSync(join(project, '.agents'))).toBe(false);
  });

  it("names the file inside the .tgz when the archive's skill does not validate", async () => {
    const project = join(dir.path, 'bad-archive');
    mkdirSync(project, { recursive: true });
    const archive = join(dir.path, 'package.tgz');
    writeFileSync(archive, tarball([{ path: 'package/SKILL.md', content: '---\nname: pdf-forms\ndescription: d\n---\n' }]));

    const result = await runCli(['skills', 'add', archive], { home: dir.path, cwd: project });

    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`${archive}:package/SKILL.md:2:7 name: 'pdf-forms' must equal the skill's folder name, 'package'`);
  });
});
