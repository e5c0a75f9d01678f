import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SyndicateConfigError, loadSyndicate, type ConfigIssue, type LoadSyndicateOptions } from '../../src/config/index.js';

const created: string[] = [];

/** Writes the files into a fresh temp folder and returns the folder. */
export function writeFixture(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'syndicate-config-'));
  created.push(dir);
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(dir, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  return dir;
}

export function removeFixtures(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** The issues loading `file` reports; fails the test if the file loads. */
export function issuesOf(file: string, options?: LoadSyndicateOptions): ConfigIssue[] {
  try {
    loadSyndicate(file, options);
  } catch (error) {
    if (error instanceof SyndicateConfigError) return error.issues;
    throw error;
  }
  throw new Error(`expected ${file} to be refused`);
}

/** A small valid syndicate; `extra` lines are appended at the top level. */
export function syndicateYaml(options: { orchestrator?: string[]; subagents?: string[]; extra?: string[] } = {}): string {
  return [
    'syndicate_name: Test',
    ...(options.extra ?? []),
    'orchestrator:',
    '  name: Boss',
    '  model: scripted',
    '  instruction: Route the question.',
    ...(options.orchestrator ?? []),
    'subagents:',
    ...(options.subagents ?? ['  - name: Helper', '    description: Answers questions.', '    instruction: Answer.']),
    '',
  ].join('\n');
}
