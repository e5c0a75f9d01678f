import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { serverCpuUs } from './postgresCpu.js';
import { report } from './stats.js';

// Two processes vs one on one PostgreSQL database (issue 12 §6): the throughput of concurrent
// persisted turns when the work is spread over two real child processes, against one process doing
// the same work per process. Each process runs LANES sessions at once, TURNS_PER_LANE turns each.
// Turns here are CPU work (an instant model): the node processes' and the server's CPU per turn,
// and how busy the machine's cores were, say how far a second process can raise throughput on this
// machine (cpu_bound_ratio, below) and what holds it back.

const LANES = 50;
const TURNS_PER_LANE = 10;
const WORKER = fileURLToPath(new URL('./postgresTurnsWorker.js', import.meta.url));
const CLOCK_TICK_US = 10_000;
// Issue 12 §6.
const TARGET_RATIO = 1.6;

interface Done {
  type: 'done';
  turns: number;
  ms: number;
  cpuUs: number;
}

interface Run {
  turnsPerSecond: number;
  /** CPU per turn of the node processes and of the server, in µs. */
  nodeUs: number;
  serverUs: number;
  /** Cores' worth of CPU the bench's processes (node and server) used, and every other process on the machine. */
  ourCores: number;
  otherCores: number;
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

/** Busy and total CPU time of the whole machine so far (every process, ours or not), from /proc/stat. */
function machineCpuUs(): { busy: number; total: number } {
  // cpu  user nice system idle iowait irq softirq steal ...
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0);
  return { busy: (total - fields[3]! - fields[4]!) * CLOCK_TICK_US, total: total * CLOCK_TICK_US };
}

/** Turns per second of `processes` workers started together on the database at `url`, and the CPU they cost. */
async function throughput(url: string, processes: number, round: string): Promise<Run> {
  const workers = await Promise.all(Array.from({ length: processes }, (_, i) => startWorker(url, `${round}-p${processes}-${i}`)));
  const serverBefore = await serverCpuUs(url);
  const machineBefore = machineCpuUs();
  const start = performance.now();
  for (const { child } of workers) child.send('go');
  const results = await Promise.all(workers.map(({ done }) => done));
  const wallMs = performance.now() - start;
  const machineAfter = machineCpuUs();
  const serverUs = (await serverCpuUs(url)) - serverBefore;
  for (const { child } of workers) child.send('close');
  await Promise.all(workers.map(({ child }) => (child.exitCode === null ? once(child, 'exit') : undefined)));
  const turns = results.reduce((sum, { turns }) => sum + turns, 0);
  const nodeUs = results.reduce((sum, { cpuUs }) => sum + cpuUs, 0);
  const perSecond = turns / (wallMs / 1_000);
  const busyShare = (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total);
  const ourCores = (nodeUs + serverUs) / (wallMs * 1_000);
  const otherCores = Math.max(0, busyShare * availableParallelism() - ourCores);
  report(`postgres turns, ${processes} process${processes > 1 ? 'es' : ''}`, {
    turns,
    wall_ms: wallMs,
    turns_per_s: perSecond,
    lanes_per_process: LANES,
    node_cpu_us_per_turn: nodeUs / turns,
    server_cpu_us_per_turn: serverUs / turns,
    machine_busy_pct: busyShare * 100,
    our_cores: ourCores,
    other_cores: otherCores,
  });
  return { turnsPerSecond: perSecond, nodeUs: nodeUs / turns, serverUs: serverUs / turns, ourCores, otherCores };
}

/**
 * The most a second process can raise throughput when turns are CPU work, on a machine nothing else
 * uses: one process runs at most one core of node work, and the cores are shared with the server;
 * two processes at most use every core. Measured CPU per turn from the one-process run.
 */
function cpuBoundRatio({ nodeUs, serverUs }: Run, cores: number): number {
  const one = Math.min(1 / nodeUs, cores / (nodeUs + serverUs));
  const two = Math.min(2 / nodeUs, cores / (nodeUs + serverUs));
  return two / one;
}

export async function benchTwoProcesses(url: string): Promise<void> {
  const cores = availableParallelism();
  const one = await throughput(url, 1, 'a');
  const two = await throughput(url, 2, 'a');
  const bound = cpuBoundRatio(one, cores);
  // Throughput is the CPU the runs got over their CPU per turn, so the ratio is the product of the two
  // ratios below: on a busy machine the share the second process takes from other processes,
  // not the store, decides it.
  report('two processes over one', {
    throughput_ratio: two.turnsPerSecond / one.turnsPerSecond,
    cpu_bound_ratio: bound,
    cores_got_ratio: two.ourCores / one.ourCores,
    cpu_per_turn_ratio: (one.nodeUs + one.serverUs) / (two.nodeUs + two.serverUs),
    cores,
    load_avg_1m: loadavg()[0]!,
  });
  if (one.otherCores > cores / 4) {
    console.log(
      `  other processes used ${one.otherCores.toFixed(2)} and ${two.otherCores.toFixed(2)} of the ${cores} cores during the runs, which got ${one.ourCores.toFixed(2)} and ${two.ourCores.toFixed(2)}: ` +
        `cpu_bound_ratio is what an otherwise idle machine would allow; here a second process gains only what it takes from them`,
    );
  }
  if (bound < TARGET_RATIO) {
    console.log(
      `  on ${cores} cores a persisted turn costs ${Math.round(one.nodeUs)} µs of node CPU and ${Math.round(one.serverUs)} µs of server CPU: two processes can be at most ` +
        `${bound.toFixed(2)}x one here, whatever the store does (and less while other work shares the cores); ${TARGET_RATIO}x needs ${Math.ceil((TARGET_RATIO * (one.nodeUs + one.serverUs)) / one.nodeUs)} free cores`,
    );
  }
}
