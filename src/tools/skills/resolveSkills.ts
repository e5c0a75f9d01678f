import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ConfigIssue } from '../../config/errors.js';
import { loadSkill, type Skill } from './loadSkill.js';

// Where `skills:` entries are found: a path (relative to the syndicate file), or a name looked up
// in the project's .agents/skills/ and then the user's ~/.agents/skills/.

export interface SkillFolders {
  /** The project's skills: <cwd>/.agents/skills by default. */
  project: string;
  /** The user's: ~/.agents/skills by default. */
  user: string;
}

export function defaultSkillFolders(): SkillFolders {
  return { project: path.join(process.cwd(), '.agents', 'skills'), user: path.join(os.homedir(), '.agents', 'skills') };
}

function isPath(entry: string): boolean {
  return entry.includes('/') || entry.includes(path.sep) || entry.startsWith('.');
}

export function resolveSkills(entries: readonly string[], file: string, folders: SkillFolders): { skills: Skill[]; issues: ConfigIssue[] } {
  const skills: Skill[] = [];
  const issues: ConfigIssue[] = [];
  for (const entry of entries) {
    const folder = isPath(entry) ? path.resolve(path.dirname(file), entry) : [folders.project, folders.user].map((root) => path.join(root, entry)).find((candidate) => existsSync(candidate));
    if (folder === undefined) {
      issues.push({ file, line: 0, column: 0, path: '', message: `skill '${entry}' is in neither ${folders.project} nor ${folders.user}: install it there (syndicate skills add <folder>) or give its path` });
      continue;
    }
    const loaded = loadSkill(folder);
    if (loaded.ok) skills.push(loaded.skill);
    else issues.push(...loaded.issues);
  }
  return { skills, issues };
}
