import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { formatIssue } from '../config/errors.js';
import { loadSkill } from '../tools/skills/loadSkill.js';
import { defaultSkillFolders } from '../tools/skills/resolveSkills.js';
import { addSkill, lockfileOf } from '../tools/skills/lockfile.js';
import { isSkillArchive, unpackSkillArchive } from '../tools/skills/unpackSkill.js';
import { ExitCode } from './exitCodes.js';
import { colourEnabled, createStyle } from './terminal.js';

/** `skills validate <folder>`: prints `ok  <name>  <hash>` or every issue as file:line:col. */
export function validateSkill(folder: string): number {
  const style = createStyle(colourEnabled(process.stdout, process.env));
  const loaded = loadSkill(folder);
  if (loaded.ok) {
    process.stdout.write(`${style.green('ok')}  ${loaded.skill.name}  ${loaded.skill.hash}\n`);
    return ExitCode.ok;
  }
  process.stdout.write(`${style.red('error')}  ${folder}\n${loaded.issues.map(formatIssue).join('\n')}\n`);
  return ExitCode.failed;
}

/** `skills list`: the skills of the project's .agents/skills/, then the user's, each checked. */
export function listSkills(): number {
  const style = createStyle(colourEnabled(process.stdout, process.env));
  const folders = defaultSkillFolders();
  let valid = true;
  for (const [label, root] of [['project', folders.project], ['user', folders.user]] as const) {
    const entries = existsSync(root) ? readdirSync(root, { withFileTypes: true }).filter((entry) => entry.isDirectory() || entry.isSymbolicLink()) : [];
    if (entries.length === 0) {
      process.stdout.write(`${style.dim(`${label}: no skills in ${root}`)}\n`);
      continue;
    }
    process.stdout.write(`${style.bold(`${label}`)} ${style.dim(root)}\n`);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const loaded = loadSkill(path.join(root, entry.name));
      if (loaded.ok) {
        const { name, description, allowedTools } = loaded.skill;
        const tools = allowedTools === undefined ? '' : `\n    ${style.dim(`allowed tools: ${allowedTools.join(' ') || 'none'}`)}`;
        process.stdout.write(`  ${name}: ${description}${tools}\n`);
      }
      else {
        valid = false;
        process.stdout.write(`  ${style.red(entry.name)}: ${loaded.issues.map(formatIssue).join('; ')}\n`);
      }
    }
  }
  return valid ? ExitCode.ok : ExitCode.failed;
}

/** Installs a loaded skill folder, or prints why it does not load; `shownAs` names the folder in issues. */
function install(folder: string, shownAs: (file: string) => string): number {
  const style = createStyle(colourEnabled(process.stdout, process.env));
  const loaded = loadSkill(folder);
  if (!loaded.ok) {
    process.stdout.write(`${style.red('error')}  ${shownAs(folder)}\n${loaded.issues.map((issue) => formatIssue({ ...issue, file: shownAs(issue.file) })).join('\n')}\n`);
    return ExitCode.failed;
  }
  const { project } = defaultSkillFolders();
  const added = addSkill(loaded.skill, project);
  process.stdout.write(`${style.green('added')}  ${added.name}  ${added.hash}  ${style.dim(`to ${added.dir}, pinned in ${lockfileOf(project)}`)}\n`);
  return ExitCode.ok;
}

/**
 * `skills add <folder or .tgz>`: copies a valid skill into the project's .agents/skills/ and pins
 * its hash in the lockfile. An archive's one skill folder is unpacked to a temporary folder first;
 * its issues name the file inside the archive.
 */
export function addSkillCommand(source: string): number {
  if (!isSkillArchive(source)) return install(source, (file) => file);
  const unpacked = unpackSkillArchive(source);
  if (!unpacked.ok) {
    process.stderr.write(`error: ${unpacked.problem}\n`);
    return ExitCode.failed;
  }
  try {
    const staging = path.dirname(unpacked.dir);
    return install(unpacked.dir, (file) => (file.startsWith(staging) ? `${source}:${path.relative(staging, file).split(path.sep).join('/')}` : file));
  } finally {
    unpacked.remove();
  }
}
