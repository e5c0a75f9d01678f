import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { issueFromProblem, type ConfigIssue } from '../../config/errors.js';
import { schemaProblems } from '../../config/schemaProblems.js';
import { parseYaml } from '../../config/yamlSource.js';

// A skill in the agentskills.io format: a folder whose SKILL.md opens with YAML frontmatter (name,
// description, optional license, compatibility, metadata, allowed-tools) followed by the
// instructions, with optional scripts/, references/ and assets/. Everything a skill offers must
// sit inside its folder: a link that leads out is refused.

export interface Skill {
  name: string;
  description: string;
  /** Real path of the folder. */
  dir: string;
  /** The instructions after the frontmatter. */
  body: string;
  /** Files besides SKILL.md, relative to the folder, with '/' separators, sorted. */
  files: string[];
  /** sha256 over every file's path and content: what a lockfile pins. */
  hash: string;
  license?: string;
  compatibility?: string;
  metadata?: Record<string, string>;
  /** `allowed-tools`, one entry per tool, e.g. ['read_skill_file', 'Bash(git:*)']: shown, not enforced. */
  allowedTools?: string[];
}

export type LoadedSkill = { ok: true; skill: Skill } | { ok: false; issues: ConfigIssue[] };

const SKILL_FILE = 'SKILL.md';
const MAX_FILES = 500;

/** A tool name, optionally with a parenthesised pattern as some clients write them: Bash(git log:*). */
const TOOL_ENTRY = /^[A-Za-z_][\w.-]*(\([^()]*\))?$/;

/**
 * `allowed-tools` entries. The spec separates them by spaces; a space inside parentheses belongs
 * to its entry, and a comma also separates, as many published skills write them.
 */
export function allowedToolEntries(list: string): string[] {
  const entries: string[] = [];
  let current = '';
  let depth = 0;
  for (const char of list) {
    if (char === '(') depth++;
    else if (char === ')') depth--;
    if (depth === 0 && (char === ',' || /\s/.test(char))) {
      if (current) entries.push(current);
      current = '';
    } else current += char;
  }
  if (current) entries.push(current);
  return entries;
}

const allowedTools = z.string().superRefine((list, ctx) => {
  const bad = allowedToolEntries(list).filter((entry) => !TOOL_ENTRY.test(entry));
  if (bad.length > 0) ctx.addIssue({ code: 'custom', message: `${bad.map((entry) => `'${entry}'`).join(', ')} is not a tool name: list tool names separated by spaces, e.g. "read_skill_file calculator"` });
});

const frontmatterSchema = z.strictObject({
  name: z
    .string()
    .max(64)
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be lower-case letters, digits and single hyphens, e.g. pdf-forms'),
  description: z.string().min(1).max(1024),
  license: z.string().optional(),
  compatibility: z.string().max(500).optional(),
  metadata: z.record(z.string(), z.string()).optional(),
  'allowed-tools': allowedTools.optional(),
});

function fileIssue(file: string, message: string, line = 0, column = 0): ConfigIssue {
  return { file, line, column, path: '', message };
}

/** Whether `target` (a real path) lies inside `dir` (a real path). */
export function isInside(dir: string, target: string): boolean {
  return target === dir || target.startsWith(dir + path.sep);
}

/** The skill's files, relative; a link leading out of the folder is an issue. */
function listFiles(dir: string, issues: ConfigIssue[]): string[] {
  const files: string[] = [];
  const walk = (relative: string): void => {
    for (const entry of readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const rel = relative === '' ? entry.name : `${relative}/${entry.name}`;
      const full = path.join(dir, rel);
      const real = realpathSync(full);
      if (!isInside(dir, real)) {
        issues.push(fileIssue(full, `leads out of the skill's folder (to ${real}): a skill may only offer files inside it`));
        continue;
      }
      if (lstatSync(real).isDirectory()) walk(rel);
      else if (rel !== SKILL_FILE) files.push(rel);
      if (files.length > MAX_FILES) throw new Error(`${dir} holds more than ${MAX_FILES} files: that is not a skill`);
    }
  };
  walk('');
  return files.sort();
}

function hashOf(dir: string, files: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of [SKILL_FILE, ...files]) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(dir, file)));
    hash.update('\0');
  }
  return `sha256:${hash.digest('hex')}`;
}

function toolsOf(list: string | undefined): string[] | undefined {
  return list === undefined ? undefined : allowedToolEntries(list);
}

/** Reads and checks the skill in `folder`; every problem names its file and, in SKILL.md, its line. */
export function loadSkill(folder: string): LoadedSkill {
  let dir: string;
  try {
    dir = realpathSync(folder);
  } catch {
    return { ok: false, issues: [fileIssue(folder, 'no such folder: a skill is a folder holding a SKILL.md')] };
  }
  const skillFile = path.join(dir, SKILL_FILE);
  let text: string;
  try {
    text = readFileSync(skillFile, 'utf8');
  } catch {
    return { ok: false, issues: [fileIssue(skillFile, `not found: a skill folder must hold a ${SKILL_FILE}`)] };
  }
  const match = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
  if (!match) return { ok: false, issues: [fileIssue(skillFile, 'has no frontmatter: it must open with a line "---", then YAML with name and description, then "---"', 1, 1)] };
  const yaml = parseYaml(match[1]!);
  // The frontmatter starts on line 2, after the opening '---'.
  const at = (position: { line: number; column: number }) => ({ line: position.line + 1, column: position.column });
  if (yaml.syntaxErrors.length > 0) {
    return { ok: false, issues: yaml.syntaxErrors.map((error) => fileIssue(skillFile, `invalid YAML in the frontmatter: ${error.message}`, error.line + 1, error.column)) };
  }
  const parsed = frontmatterSchema.safeParse(yaml.data ?? {});
  const issues: ConfigIssue[] = parsed.success ? [] : schemaProblems(parsed.error.issues, yaml.data, frontmatterSchema).map((problem) => issueFromProblem(skillFile, at(yaml.locate(problem.path, problem.anchor)), problem));
  const folderName = path.basename(dir);
  if (parsed.success && parsed.data.name !== folderName) {
    issues.push(issueFromProblem(skillFile, at(yaml.locate(['name'])), { path: ['name'], message: `'${parsed.data.name}' must equal the skill's folder name, '${folderName}': rename one of them` }));
  }
  const files = listFiles(dir, issues);
  if (!parsed.success || issues.length > 0) return { ok: false, issues };
  const { name, description, license, compatibility, metadata } = parsed.data;
  return {
    ok: true,
    skill: { name, description, dir, body: text.slice(match[0].length).trim(), files, hash: hashOf(dir, files), license, compatibility, metadata, allowedTools: toolsOf(parsed.data['allowed-tools']) },
  };
}
