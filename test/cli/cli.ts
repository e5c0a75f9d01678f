import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Helpers for running the BUILT CLI as a real child process, isolated from the developer's
// environment: no inherited provider keys, a private SYNDICATE_HOME, no colour.

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = join(REPO_ROOT, 'dist', 'cli', 'syndicate.mjs');
export const EXAMPLES_DIR = join(REPO_ROOT, 'examples');

export const BOARDROOM_PROPOSAL = 'Proposal: a three-day team offsite in Lisbon for 12 people on a 4,800 budget.';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** SYNDICATE_HOME for the child. */
  home: string;
  cwd?: string;
  env?: Record<string, string>;
  input?: string;
}

export function cliEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: home, SYNDICATE_HOME: home, NO_COLOR: '1', ...extra };
}

/** A running CLI whose output can be awaited piece by piece. */
export interface LiveCli {
  child: ChildProcess;
  result: Promise<CliResult>;
  waitForStdout(text: string): Promise<void>;
}

export function startCli(args: readonly string[], options: CliOptions): LiveCli {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd ?? options.home, env: cliEnv(options.home, options.env), stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  let waiters: Array<{ text: string; resolve: () => void }> = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    waiters = waiters.filter((w) => (stdout.includes(w.text) ? (w.resolve(), false) : true));
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const result = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return {
    child,
    result,
    waitForStdout(text) {
      if (stdout.includes(text)) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ text, resolve }));
    },
  };
}

export function runCli(args: readonly string[], options: CliOptions): Promise<CliResult> {
  const cli = startCli(args, options);
  cli.child.stdin?.end(options.input ?? '');
  return cli.result;
}

/** A fresh directory, removed by the returned cleanup. */
export function tempDir(prefix: string): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), `syndicate-cli-${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
