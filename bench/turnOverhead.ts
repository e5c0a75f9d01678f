import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineAgent, defineSyndicate } from '../src/config/define.js';
import type { AgentDefinition } from '../src/config/definition.js';
import { compileSyndicate, type CompiledSyndicate } from '../src/runtime/compileSyndicate.js';
import { runTurn, type RunTurnOptions } from '../src/runtime/runTurn.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import type { Store } from '../src/store/store.js';
import { mib, report, summarize } from './stats.js';

// Framework overhead per turn with an instant model: an orchestrator and two subagents on the
// scripted model, which answers in microseconds, so what is measured is the turn loop,
// delegation, event stream and session writes: 5 model calls and 2 delegations per turn.

const WARMUP_TURNS = 300;
const SEQUENTIAL_TURNS = 2_000;
const CONCURRENT_TURNS = 200;
const TURNS_PER_SESSION = 10;

export function benchCouncil(): CompiledSyndicate {
  const leaf = (name: string): AgentDefinition => defineAgent(name, { model: 'scripted', description: `${name} examines the claim.` });
  return compileSyndicate(defineSyndicate({ ...leaf('Moderator'), subagents: [leaf('Advocate'), leaf('Skeptic')] }, { name: 'Bench Council', memorySystem: 'session-only' }));
}

export async function turn(compiled: CompiledSyndicate, options: RunTurnOptions): Promise<void> {
  let modelCalls = 0;
  for await (const event of runTurn(compiled, options)) {
    if (event.type === 'usage') modelCalls++;
    if (event.type === 'turn-end' && (event.status !== 'completed' || modelCalls !== 5)) {
      throw new Error(`bench turn went wrong: ${event.status} after ${modelCalls} model calls (${event.error ?? ''})`);
    }
  }
}

async function sequentialTurns(compiled: CompiledSyndicate, store: Store | undefined, stream: boolean): Promise<void> {
  const input = 'Should our team adopt a four-day work week?';
  const prefix = stream ? 'streamed' : 'whole';
  const options = (i: number, phase: string): RunTurnOptions => ({ input, store, stream, sessionId: `${prefix}-${phase}-${Math.floor(i / TURNS_PER_SESSION)}` });
  const label = `${stream ? 'doStream' : 'doGenerate'}, ${store ? 'persisted' : 'not persisted'}`;
  for (let i = 0; i < WARMUP_TURNS; i++) await turn(compiled, options(i, 'warm'));

  const samples: number[] = [];
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < SEQUENTIAL_TURNS; i++) {
    const start = process.hrtime.bigint();
    await turn(compiled, options(i, 'seq'));
    samples.push(Number(process.hrtime.bigint() - start) / 1_000);
  }
  const cpu = process.cpuUsage(cpuBefore);
  const figures = summarize(samples);
  report(`turn (${label})`, {
    turns: SEQUENTIAL_TURNS,
    median_us: figures.median,
    p99_us: figures.p99,
    cpu_us_per_turn: (cpu.user + cpu.system) / SEQUENTIAL_TURNS,
  });
}

export async function benchTurnOverhead(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'syndicate-bench-'));
  const store: Store = openSqliteStore(join(dir, 'bench.db'));
  const compiled = benchCouncil();
  // doGenerate is how a face without live text (and the frameworks we compare with) calls a
  // model, doStream what the CLI does for live deltas. The frameworks the issue compares with
  // were measured with no persistence at all, hence the last run.
  await sequentialTurns(compiled, store, false);
  await sequentialTurns(compiled, store, true);
  await sequentialTurns(compiled, undefined, false);

  const input = 'Should our team adopt a four-day work week?';
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: CONCURRENT_TURNS }, (_, i) => turn(compiled, { input, store, stream: false, sessionId: `conc-${i}` })));
  const concurrentMs = Number(process.hrtime.bigint() - start) / 1e6;
  const memory = process.memoryUsage();
  report('turn (200 concurrent)', {
    wall_ms: concurrentMs,
    heap_mib: mib(memory.heapUsed),
    peak_rss_mib: process.resourceUsage().maxRSS / 1024,
  });

  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
