import { z } from 'zod';
import { defineAgent, defineSyndicate } from '../src/config/define.js';
import { compileSyndicate } from '../src/runtime/compileSyndicate.js';
import type { TurnEvent } from '../src/core/events.js';
import { runTurn } from '../src/runtime/runTurn.js';
import { builtinTools, createToolRegistry } from '../src/tools/registry.js';
import { defineTool } from '../src/core/tool.js';
import { report, summarize } from './stats.js';

// Code mode's own cost: one execute_code whose script makes 50 tool calls, from its tool-call
// event to its tool-result event, less the time spent inside the tool itself. That covers a
// fresh QuickJS runtime and context, the prelude, 50 calls across the boundary (JSON both ways,
// a promise each) through executeToolCall with their events, and the teardown. Target: < 10 ms.

const CALLS = 50;
const WARMUP = 30;
const RUNS = 300;
const CODE = `let total = 0;\nfor (let i = 0; i < ${CALLS}; i++) total += (await echo({ n: i })).n;\nreturn total;`;

export async function benchCodeMode(): Promise<void> {
  let toolNs = 0n;
  const echo = defineTool({
    name: 'echo',
    description: 'Returns its input.',
    inputSchema: z.object({ n: z.number() }),
    execute: (input) => {
      const start = process.hrtime.bigint();
      const output = { n: input.n };
      toolNs += process.hrtime.bigint() - start;
      return output;
    },
  });
  const root = defineAgent('Coder', {
    model: 'scripted',
    codeMode: true,
    tools: ['echo'],
    script: [
      { match: 'bench', tool_calls: [{ tool: 'execute_code', args: { code: CODE } }], repeat: true },
      { reply: 'done', repeat: true },
    ],
  });
  const compiled = compileSyndicate(defineSyndicate(root, { name: 'Code Bench', memorySystem: 'internal-only' }), { tools: createToolRegistry([...builtinTools.values(), echo]) });

  const overheads: number[] = [];
  const cpuOverheads: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    toolNs = 0n;
    let started = 0n;
    let ended = 0n;
    let cpuAtStart = process.cpuUsage();
    let cpu = { user: 0, system: 0 };
    const observe = (event: TurnEvent): void => {
      if (event.type === 'tool-call' && event.tool === 'execute_code') {
        started = process.hrtime.bigint();
        cpuAtStart = process.cpuUsage();
      }
      if (event.type === 'tool-result' && event.tool === 'execute_code') {
        ended = process.hrtime.bigint();
        cpu = process.cpuUsage(cpuAtStart);
        if (event.isError || (event.output as { result: unknown }).result !== (CALLS * (CALLS - 1)) / 2) throw new Error(`bench script went wrong: ${JSON.stringify(event.output)}`);
      }
    };
    for await (const event of runTurn(compiled, { input: 'bench', observers: [observe], stream: false })) void event;
    if (i >= WARMUP) {
      overheads.push(Number(ended - started - toolNs) / 1e6);
      cpuOverheads.push((cpu.user + cpu.system) / 1000 - Number(toolNs) / 1e6);
    }
  }
  // Wall time swells with the machine's load (other processes on these 2 cores); CPU time less so.
  const wall = summarize(overheads);
  const cpu = summarize(cpuOverheads);
  report(`execute_code (${CALLS} calls)`, { runs: RUNS, wall_median_ms: wall.median, wall_p99_ms: wall.p99, cpu_median_ms: cpu.median, cpu_p99_ms: cpu.p99, target_ms: 10 });
}
