import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const created: string[] = [];

/** A folder `root/<name>` holding `files` (SKILL.md among them); returns the skill's folder. */
export function writeSkill(name: string, files: Record<string, string>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'syndicate-skills-'));
  created.push(root);
  const dir = path.join(root, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

export function removeSkills(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export const PDF_SKILL = ['---', 'name: pdf-forms', 'description: Fills in PDF forms.', 'license: MIT', '---', '# Filling forms', 'Read references/fields.md first.', ''].join('\n');
