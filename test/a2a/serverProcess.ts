import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';

// serve-a2a as a real process from the built package (fixtures/serve-a2a-process.mjs), killed at
// the end of each test.

const child = fileURLToPath(new URL('./fixtures/serve-a2a-process.mjs', import.meta.url));
const built = fileURLToPath(new URL('../../dist/a2a/serveA2a.js', import.meta.url));

export interface ServerProcess {
  proc: ChildProcess;
  url: string;
  /** How many tasks it marked failed at startup. */
  interrupted: number;
}

export interface ServerProcessOptions {
  port?: number;
  leaseMs?: number;
}

/** Starts servers on a store (a SQLite path or a postgres:// URL); each test's are SIGKILLed after it. */
export function useServerProcesses(): (store: string, options?: ServerProcessOptions) => Promise<ServerProcess> {
  const procs: ChildProcess[] = [];
  afterEach(async () => {
    await Promise.all(procs.splice(0).map((proc) => killed(proc)));
  });
  return (store, { port = 0, leaseMs } = {}) => {
    if (!existsSync(built)) throw new Error('dist/ is missing: run `npm run build` (npm test does) before this test');
    return new Promise((resolve, reject) => {
      const proc = spawn(process.execPath, [child, store, String(port), ...(leaseMs ? [String(leaseMs)] : [])], { stdio: ['ignore', 'pipe', 'pipe'] });
      procs.push(proc);
      let stderr = '';
      proc.stderr!.on('data', (chunk) => (stderr += chunk));
      proc.stdout!.on('data', (chunk: Buffer) => {
        const match = /LISTENING (\S+) INTERRUPTED (\d+)/.exec(chunk.toString());
        if (match) resolve({ proc, url: match[1]!, interrupted: Number(match[2]) });
      });
      proc.on('exit', () => reject(new Error(`the server process ended before listening: ${stderr}`)));
    });
  };
}

/** SIGKILLs the process; resolves once it has exited. */
export function killed(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    proc.once('exit', () => resolve());
    proc.kill('SIGKILL');
  });
}
