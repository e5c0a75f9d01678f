import { symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSkill } from '../../../src/tools/skills/loadSkill.js';
import { PDF_SKILL, removeSkills, writeSkill } from './fixtures.js';

afterEach(removeSkills);

describe('loadSkill', () => {
  it('reads the frontmatter, the instructions and the files of a skill folder', () => {
    const dir = writeSkill('pdf-forms', { 'SKILL.md': PDF_SKILL, 'references/fields.md': 'Name, date.', 'scripts/fill.js': 'return 1;' });

    const loaded = loadSkill(dir);

    expect(loaded).toMatchObject({ ok: true, skill: { name: 'pdf-forms', description: 'Fills in PDF forms.', license: 'MIT', body: '# Filling forms\nRead references/fields.md first.', files: ['references/fields.md', 'scripts/fill.js'], hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) } });
  });

  it('gives the same content the same hash, and changed content another', () => {
    const dir = writeSkill('pdf-forms', { 'SKILL.md': PDF_SKILL, 'references/fields.md': 'Name, date.' });
    const before = loadSkill(dir);

    writeFileSync(path.join(dir, 'references/fields.md'), 'Name, date, signature.');

    expect(loadSkill(dir)).not.toMatchObject({ skill: { hash: before.ok ? before.skill.hash : '' } });
  });

  it('refuses a SKILL.md without frontmatter, naming its first line', () => {
    const dir = writeSkill('pdf-forms', { 'SKILL.md': '# Just text\n' });

    expect(loadSkill(dir)).toMatchObject({ ok: false, issues: [{ file: path.join(dir, 'SKILL.md'), line: 1, message: expect.stringContaining('has no frontmatter') }] });
  });

  it('refuses malformed YAML in the frontmatter with its line in SKILL.md', () => {
    const dir = writeSkill('pdf-forms', { 'SKILL.md': '---\nname: pdf-forms\ndescription: [unclosed\n---\nBody\n' });

    expect(loadSkill(dir)).toMatchObject({ ok: false, issues: [{ line: expect.any(Number), message: expect.stringContaining('invalid YAML in the frontmatter') }] });
  });

  it('refuses a missing description and a name that breaks the naming rule, each on its line', () => {
    const dir = writeSkill('PDF_Forms', { 'SKILL.md': '---\nname: PDF_Forms\n---\nBody\n' });

    const loaded = loadSkill(dir);

    expect(loaded.ok).toBe(false);
    expect(loaded.ok || loaded.issues.map((issue) => [issue.line, issue.path]).sort()).toEqual([
      [2, 'description'],
      [2, 'name'],
    ]);
  });

  it('refuses a name that differs from its folder, at the name’s line', () => {
    const dir = writeSkill('pdf-forms', { 'SKILL.md': PDF_SKILL.replace('name: pdf-forms', 'name: pdf-filler') });

    expect(loadSkill(dir)).toMatchObject({ ok: false, issues: [{ line: 2, column: 7, path: 'name', message: "'pdf-filler' must equal the skill's folder name, 'pdf-forms': rename one of them" }] });
  });

  it('reads allowed-tools as one entry per tool, keeping a parenthesised pattern whole', () => {
    const dir = writeSkill('pdf-forms', { 'SKILL.md': PDF_SKILL.replace('license: MIT', 'allowed-tools: read_skill_file calculator, Bash(git log:*)') });

    expect(loadSkill(dir)).toMatchObject({ ok: true, skill: { allowedTools: ['read_skill_file', 'calculator', 'Bash(git log:*)'] } });
  });

  it('refuses an allowed-tools entry that is not a tool name, at its line', () => {
    const dir = writeSkill('pdf-forms', { 'SKILL.md': PDF_SKILL.replace('license: MIT', 'allowed-tools: calculator "rm -rf" Bash(git') });

    expect(loadSkill(dir)).toMatchObject({
      ok: false,
      issues: [{ line: 4, path: '["allowed-tools"]', message: expect.stringContaining(`'"rm', '-rf"', 'Bash(git' is not a tool name`) }],
    });
  });

  it('refuses a file that leads out of the skill’s folder', () => {
    const dir = writeSkill('pdf-forms', { 'SKILL.md': PDF_SKILL });
    symlinkSync(os.tmpdir(), path.join(dir, 'escape'));

    expect(loadSkill(dir)).toMatchObject({ ok: false, issues: [{ file: path.join(dir, 'escape'), message: expect.stringContaining("leads out of the skill's folder") }] });
  });
});
