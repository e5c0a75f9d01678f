import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { killed } from '../a2a/serverProcess.js';

// Real server processes with serve's task scheduler and task routes
// (test/server/fixtures/serve-tasks-process.mjs, from the built package), killed at the end of each test.

const child = fileURLToPath(new URL('../server/fixtures/serve-tasks-process.mjs', import.meta.url));
const built = fileURLToPath(new URL('../../dist/cli/serveSchedules.js', import.meta.url));

export const AUTH = { authorization: 'Bearer alice-token', 'content-type': 'application/json' };

export interface TaskServer {
  proc: ChildProcess;
  api: string;
  stderr: () => string;
}

export interface TaskServerOptions {
  leaseMs: number;
  /** How late a firing may be first seen and still run on time; older, it was missed (catch_up). */
  graceMs?: number;
}

/** Starts task servers on a store; every one still running is killed after each test. */
export function useTaskServers(): (store: string, options: TaskServerOptions) => Promise<TaskServer> {
  const procs: ChildProcess[] = [];
  afterEach(async () => {
    await Promise.all(procs.splice(0).map((proc) => killed(proc)));
  });
  return (store, { leaseMs, graceMs }) => {
    if (!existsSync(built)) throw new Error('dist/ is missing: run `npm run build` (npm test does) before this test');
    return new Promise((resolve, reject) => {
      const proc = spawn(process.execPath, [child, store, String(leaseMs), ...(graceMs === undefined ? [] : [String(graceMs)])], { stdio: ['ignore', 'pipe', 'pipe'] });
      procs.push(proc);
      let stderr = '';
      proc.stderr!.on('data', (chunk) => (stderr += chunk));
      proc.stdout!.on('data', (chunk: Buffer) => {
        const match = /LISTENING (\S+)/.exec(chunk.toString());
        if (match) resolve({ proc, api: match[1]!, stderr: () => stderr });
      });
      proc.on('exit', () => reject(new Error(`the server process ended before listening: ${stderr}`)));
    });
  };
}

/** Polls until `check` holds, for at most `withinMs`. */
export async function within<T>(withinMs: number, what: string, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out after ${withinMs} ms waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
