import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { report, summarize } from './stats.js';

// Wall time from spawning `syndicate run <example> --offline` to its first printed byte
// (the first event of the trace), and to exit.

const RUNS = 10;
const cli = fileURLToPath(new URL('../../dist/cli/syndicate.mjs', import.meta.url));

function once(home: string): Promise<{ firstOutputMs: number; exitMs: number }> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const elapsed = (): number => Number(process.hrtime.bigint() - start) / 1e6;
    let firstOutputMs = Number.NaN;
    const child = spawn(process.execPath, [cli, 'run', 'council', 'Should we open a second office?', '--offline'], {
      env: { ...process.env, SYNDICATE_HOME: home, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.once('data', () => (firstOutputMs = elapsed()));
    child.stdout.resume();
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve({ firstOutputMs, exitMs: elapsed() }) : reject(new Error(`cli exited ${code}`))));
  });
}

export async function benchColdStart(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'syndicate-cold-'));
  await once(home);
  const first: number[] = [];
  const exit: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const run = await once(home);
    first.push(run.firstOutputMs);
    exit.push(run.exitMs);
  }
  const firstStats = summarize(first);
  report('cold start (run --offline)', { runs: RUNS, first_event_median_ms: firstStats.median, first_event_max_ms: Math.max(...first), exit_median_ms: summarize(exit).median });
  rmSync(home, { recursive: true, force: true });
}
