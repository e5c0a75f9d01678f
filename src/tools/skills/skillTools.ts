import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { defineTool, type AnyTool } from '../../core/tool.js';
import { runScript } from '../sandbox/runScript.js';
import { isInside, type Skill } from './loadSkill.js';

// What an agent with `skills:` gets: a catalog in its instructions (name and description only),
// activate_skill to load one skill's instructions and file list, and read_skill_file to read one
// of its files, never anything outside the skill's folder.

export const ACTIVATE_SKILL = 'activate_skill';
export const READ_SKILL_FILE = 'read_skill_file';
export const RUN_SKILL_SCRIPT = 'run_skill_script';

const MAX_FILE_CHARS = 256_000;
// Turns whose activations are remembered, for "each skill once per turn"; the oldest are forgotten.
const REMEMBERED_TURNS = 1_000;

export function skillCatalog(skills: readonly Skill[]): string {
  const lines = skills.map((skill) => `- ${skill.name}: ${skill.description}`);
  return `## Skills\nCall ${ACTIVATE_SKILL} with a skill's name to load its instructions before you follow them.\n${lines.join('\n')}`;
}

function unknownSkill(name: string, skills: readonly Skill[]): string {
  return `There is no skill '${name}'. Skills: ${skills.map((skill) => skill.name).join(', ')}.`;
}

/** The real path of a file of the skill, or why there is none to give. */
function skillFile(skill: Skill, file: string): { real: string } | { refusal: string } {
  let real: string;
  try {
    real = realpathSync(path.resolve(skill.dir, file));
  } catch {
    return { refusal: `Skill ${skill.name} has no file '${file}'. Its files: ${skill.files.join(', ') || 'none'}.` };
  }
  if (!isInside(skill.dir, real)) return { refusal: `Refused: '${file}' leaves the folder of skill ${skill.name}.` };
  if (!statSync(real).isFile()) return { refusal: `'${file}' is a folder of skill ${skill.name}, not a file.` };
  return { real };
}

export function createSkillTools(skills: readonly Skill[]): AnyTool[] {
  const byName = new Map(skills.map((skill) => [skill.name, skill]));
  const activated = new Map<string, Set<string>>();
  const skillName = z.string().describe(`One of: ${skills.map((skill) => skill.name).join(', ')}.`);

  const activate = defineTool({
    name: ACTIVATE_SKILL,
    description: "Loads a skill's instructions and lists its files (read them with read_skill_file).",
    inputSchema: z.object({ name: skillName }),
    execute: ({ name }, ctx) => {
      const skill = byName.get(name);
      if (!skill) return unknownSkill(name, skills);
      let seen = activated.get(ctx.turnId);
      if (!seen) {
        if (activated.size >= REMEMBERED_TURNS) activated.delete(activated.keys().next().value as string);
        activated.set(ctx.turnId, (seen = new Set()));
      }
      if (seen.has(name)) return { skill: name, hash: skill.hash, note: 'Already loaded in this turn: its instructions are above.' };
      seen.add(name);
      ctx.report?.({ type: 'skill-activated', skill: name, hash: skill.hash });
      const allowed = skill.allowedTools === undefined ? {} : { allowed_tools: skill.allowedTools };
      return { skill: name, hash: skill.hash, instructions: skill.body, files: skill.files, ...allowed };
    },
  });

  const read = defineTool({
    name: READ_SKILL_FILE,
    description: "Reads one file of a skill, by its path inside the skill's folder (as activate_skill lists them).",
    inputSchema: z.object({ skill: skillName, path: z.string().min(1).describe('e.g. references/forms.md') }),
    execute: ({ skill: name, path: file }) => {
      const skill = byName.get(name);
      if (!skill) return unknownSkill(name, skills);
      const found = skillFile(skill, file);
      if ('refusal' in found) return found.refusal;
      const text = readFileSync(found.real, 'utf8');
      return text.length > MAX_FILE_CHARS ? `${text.slice(0, MAX_FILE_CHARS)}\n[cut at ${MAX_FILE_CHARS} of ${text.length} characters]` : text;
    },
  });
  // A skill's scripts are JavaScript run in the code-mode sandbox (QuickJS), never host processes.
  const run = defineTool({
    name: RUN_SKILL_SCRIPT,
    description: "Runs one of a skill's JavaScript files under scripts/ in a sandbox (no network, files or tools) with your input as the global `input`, and returns what it returns.",
    inputSchema: z.object({ skill: skillName, path: z.string().min(1).describe('e.g. scripts/fill.js'), input: z.unknown().optional().describe('Any JSON value: the script reads it as `input`.') }),
    execute: async ({ skill: name, path: file, input }, ctx) => {
      const skill = byName.get(name);
      if (!skill) return unknownSkill(name, skills);
      const found = skillFile(skill, file);
      if ('refusal' in found) return found.refusal;
      const relative = path.relative(skill.dir, found.real).split(path.sep).join('/');
      if (!relative.startsWith('scripts/') || !relative.endsWith('.js')) return `Refused: only JavaScript files under scripts/ run, and '${file}' is not one.`;
      const outcome = await runScript({ code: readFileSync(found.real, 'utf8'), functions: new Map(), signal: ctx.signal, input: input ?? null });
      if (outcome.ok) return { skill: name, hash: skill.hash, script: relative, result: outcome.value, ...(outcome.logs.length > 0 ? { logs: outcome.logs } : {}) };
      const where = outcome.line === undefined ? '' : ` at line ${outcome.line} of ${relative}`;
      throw new Error(`${relative} of skill ${name} failed (${outcome.kind})${where}: ${outcome.message}`);
    },
  });
  return [activate, read, run];
}
