import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { loadSkill, type Skill } from './loadSkill.js';

// Integrity pinning: `skills add` copies a skill into the project's .agents/skills/ and records
// its content hash in .agents/skills.lock.json. A skill the lockfile pins whose files changed
// since is refused until it is added again.

const lockSchema = z.strictObject({
  version: z.literal(1),
  skills: z.record(z.string(), z.strictObject({ hash: z.string() })),
});

export type SkillLock = z.infer<typeof lockSchema>;

/** The lockfile beside a project's skills folder (.agents/skills → .agents/skills.lock.json). */
export function lockfileOf(projectSkills: string): string {
  return path.join(path.dirname(projectSkills), 'skills.lock.json');
}

export function readLock(file: string): SkillLock {
  if (!existsSync(file)) return { version: 1, skills: {} };
  const parsed = lockSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file} is not a skills lockfile (${parsed.error.issues[0]?.message ?? 'bad shape'}): fix it, or delete it and add the skills again`);
  return parsed.data;
}

/** Why a pinned skill may not be used; undefined when it is unpinned or unchanged. */
export function lockProblem(skill: Skill, lock: SkillLock, file: string): string | undefined {
  const pinned = lock.skills[skill.name];
  if (pinned === undefined || pinned.hash === skill.hash) return undefined;
  return `skill '${skill.name}' changed since it was added (${file} pins ${pinned.hash}, its files are now ${skill.hash}): check the change, then run syndicate skills add again`;
}

/** Copies the skill into `projectSkills/<name>` (replacing an older copy) and pins its hash. */
export function addSkill(source: Skill, projectSkills: string): Skill {
  const target = path.join(projectSkills, source.name);
  mkdirSync(projectSkills, { recursive: true });
  if (path.resolve(source.dir) !== path.resolve(target)) {
    const staging = `${target}.adding`;
    rmSync(staging, { recursive: true, force: true });
    cpSync(source.dir, staging, { recursive: true, dereference: true });
    rmSync(target, { recursive: true, force: true });
    renameSync(staging, target);
  }
  const added = loadSkill(target);
  if (!added.ok) throw new Error(`the copy of ${source.name} in ${target} does not load: ${added.issues.map((issue) => issue.message).join('; ')}`);
  const file = lockfileOf(projectSkills);
  const lock = readLock(file);
  lock.skills[added.skill.name] = { hash: added.skill.hash };
  writeFileSync(file, `${JSON.stringify({ version: 1, skills: Object.fromEntries(Object.entries(lock.skills).sort(([a], [b]) => a.localeCompare(b))) }, null, 2)}\n`);
  return added.skill;
}
