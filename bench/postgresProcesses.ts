import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { report } from './stats.js';

// Two processes vs one on one PostgreSQL database (issue 12 §6): the throughput of concurrent
// persisted turns when the work is spread over two real child processes, against one process doing
// the same work per process. Each process runs LANES sessions at once, TURNS_PER_LANE turns each.

const LANES = 50;
const TURNS_PER_LANE = 10;
const WORKER = fileURLToPath(new URL('./postgresTurnsWorker.js', import.meta.url));

interface Done {
  type: 'done';
  turns: number;
  ms: number;
}

async function startWorker(url: string, name: string): Promise<{ child: ChildProcess; done: Promise<Done> }> {
  const child = fork(WORKER, [url, name, String(LANES), String(TURNS_PER_LANE)], { stdio: 'inherit' });
  const exited = once(child, 'exit').then(([code]) => Promise.reject(new Error(`bench worker ${name} exited with code ${String(code)} before it finished`)));
  const message = (type: string): Promise<unknown> =>
    Promise.race([
      new Promise((resolve) => {
        const listener = (value: { type: string }) => {
          if (value.type !== type) return;
          child.off('message', listener);
          resolve(value);
        };
        child.on('message', listener);
      }),
      exited,
    ]);
  await message('ready');
  return { child, done: message('done') as Promise<Done> };
}

/** Turns per second of `processes` workers started together on the database at `url`. */
async function throughput(url: string, processes: number, round: string): Promise<number> {
  const workers = await Promise.all(Array.from({ length: processes }, (_, i) => startWorker(url, `${round}-p${processes}-${i}`)));
  const start = performance.now();
  for (const { child } of workers) child.send('go');
  const results = await Promise.all(workers.map(({ done }) => done));
  const wallMs = performance.now() - start;
  await Promise.all(workers.map(({ child }) => (child.exitCode === null ? once(child, 'exit') : undefined)));
  const turns = results.reduce((sum, { turns }) => sum + turns, 0);
  const perSecond = turns / (wallMs / 1_000);
  report(`postgres turns, ${processes} process${processes > 1 ? 'es' : ''}`, { turns, wall_ms: wallMs, turns_per_s: perSecond, lanes_per_process: LANES });
  return perSecond;
}

export async function benchTwoProcesses(url: string): Promise<void> {
  const one = await throughput(url, 1, 'a');
  const two = await throughput(url, 2, 'a');
  report('two processes over one', { throughput_ratio: two / one });
}
