import { existsSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ConfigIssue } from '../../config/errors.js';
import { loadSkill, type Skill } from './loadSkill.js';
import { lockfileOf, lockProblem, readLock } from './lockfile.js';

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

function safeRealpath(dir: string): string | undefined {
  return existsSync(dir) ? realpathSync(dir) : undefined;
}

export function resolveSkills(entries: readonly string[], file: string, folders: SkillFolders): { skills: Skill[]; issues: ConfigIssue[] } {
  const skills: Skill[] = [];
  const issues: ConfigIssue[] = [];
  const lockfile = lockfileOf(folders.project);
  const lock = readLock(lockfile);
  for (const entry of entries) {
    const folder = isPath(entry) ? path.resolve(path.dirname(file), entry) : [folders.project, folders.user].map((root) => path.join(root, entry)).find((candidate) => existsSync(candidate));
    if (folder === undefined) {
      issues.push({ file, line: 0, column: 0, path: '', message: `skill '${entry}' is in neither ${folders.project} nor ${folders.user}: install it there (syndicate skills add <folder>) or give its path` });
      continue;
    }
    const loaded = loadSkill(folder);
    if (!loaded.ok) {
      issues.push(...loaded.issues);
      continue;
    }
    // Only the project's own copies are pinned: that is where skills add puts them.
    const pinned = path.dirname(loaded.skill.dir) === safeRealpath(folders.project) ? lockProblem(loaded.skill, lock, lockfile) : undefined;
    if (pinned) issues.push({ file: path.join(loaded.skill.dir, 'SKILL.md'), line: 0, column: 0, path: '', message: pinned });
    else skills.push(loaded.skill);
  }
  return { skills, issues };
}
