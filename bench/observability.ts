import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatchSpanProcessor, TracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace';
import type { CompiledSyndicate } from '../src/runtime/compileSyndicate.js';
import { runTurn, type TurnObserver } from '../src/runtime/runTurn.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import type { Store } from '../src/store/store.js';
import { createUsageLedger, type UsageLedger } from '../src/telemetry/ledger/usageLedger.js';
import { createTracingObserver } from '../src/telemetry/tracingObserver.js';
import { report, summarize } from './stats.js';
import { benchCouncil } from './turnOverhead.js';

// What the usage ledger and tracing add to a persisted turn, as a ratio to the same turn with
// both off. Variants run interleaved in rounds so machine noise hits them alike. Spans go to
// an exporter that drops them: span creation and batching are measured, the network is not.

const ROUNDS = 6;
const TURNS_PER_ROUND = 300;

const discard: SpanExporter = {
  export: (_spans, done) => done({ code: 0 }),
  shutdown: () => Promise.resolve(),
};

type Variant = 'off' | 'ledger' | 'tracing' | 'both';

function observersFor(variant: Variant, ledger: UsageLedger, tracer: ReturnType<TracerProvider['getTracer']>): TurnObserver[] {
  const tracing = createTracingObserver(tracer);
  return { off: [], ledger: [ledger.observe], tracing: [tracing], both: [ledger.observe, tracing] }[variant];
}

async function timedTurns(compiled: CompiledSyndicate, store: Store, observers: TurnObserver[], round: number, variant: Variant): Promise<{ samples: number[]; cpuUs: number }> {
  const samples: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < TURNS_PER_ROUND; i++) {
    const start = process.hrtime.bigint();
    for await (const _event of runTurn(compiled, { input: 'Should we open a second office?', store, stream: false, observers, sessionId: `${variant}-${round}-${Math.floor(i / 10)}` })) {
      // drained
    }
    samples.push(Number(process.hrtime.bigint() - start) / 1_000);
  }
  const used = process.cpuUsage(cpu);
  return { samples, cpuUs: used.user + used.system };
}

export async function benchObservability(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'syndicate-observe-'));
  const store = openSqliteStore(join(dir, 'observe.db'));
  const provider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: discard })] });
  const tracer = provider.getTracer('bench');
  const compiled = benchCouncil();
  const ledger = createUsageLedger({ store, syndicate: 'Bench Council', sessionId: null, onError: (error) => console.error('ledger write failed:', error) });
  const variants: Variant[] = ['off', 'ledger', 'tracing', 'both'];
  const results = new Map(variants.map((variant) => [variant, { samples: [] as number[], cpuUs: 0 }]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const variant of variants) {
      const { samples, cpuUs } = await timedTurns(compiled, store, observersFor(variant, ledger, tracer), round, variant);
      const total = results.get(variant)!;
      total.samples.push(...samples);
      total.cpuUs += cpuUs;
    }
  }
  const turns = ROUNDS * TURNS_PER_ROUND;
  const base = results.get('off')!;
  const baseMedian = summarize(base.samples).median;
  for (const variant of variants) {
    const { samples, cpuUs } = results.get(variant)!;
    const median = summarize(samples).median;
    report(`observability: ${variant}`, {
      turns,
      median_us: median,
      cpu_us_per_turn: cpuUs / turns,
      median_ratio: median / baseMedian,
      cpu_ratio: cpuUs / base.cpuUs,
    });
  }
  await ledger.settled();
  await provider.shutdown();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
