import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptyResource } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace';
import type { CompiledSyndicate } from '../src/runtime/compileSyndicate.js';
import type { TurnObserver } from '../src/core/events.js';
import { runTurn } from '../src/runtime/runTurn.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import type { Store } from '../src/store/store.js';
import { createUsageLedger, type UsageLedger } from '../src/telemetry/ledger/usageLedger.js';
import { createTracingObserver, type SpanSink } from '../src/telemetry/tracingObserver.js';
import { report, summarize } from './stats.js';
import { benchCouncil } from './turnOverhead.js';

// What the usage ledger and tracing add to a persisted turn, as a ratio to the same turn with
// both off. Variants run interleaved in short rounds so machine noise hits them alike. Spans go
// to an exporter that drops them: span recording and batching are measured, the network is not.

const WARMUP_TURNS = 300;
const ROUNDS = 24;
const TURNS_PER_ROUND = 100;

const discard: SpanExporter = {
  export: (_spans, done) => done({ code: 0 }),
  shutdown: () => Promise.resolve(),
};

type Variant = 'off' | 'ledger' | 'tracing' | 'both';

interface Observing {
  observers: TurnObserver[];
  /** Finishes the variant's deferred work (ledger writes, span batches) inside its own CPU figure. */
  settle(): Promise<void>;
}

function observingFor(variant: Variant, ledger: UsageLedger, processor: BatchSpanProcessor, sink: SpanSink): Observing {
  const { observe: tracing, flush } = createTracingObserver(sink);
  const settleLedger = (): Promise<void> => ledger.settled();
  const settleSpans = (): Promise<void> => {
    flush();
    return processor.forceFlush();
  };
  const none = (): Promise<void> => Promise.resolve();
  return {
    off: { observers: [], settle: none },
    ledger: { observers: [ledger.observe], settle: settleLedger },
    tracing: { observers: [tracing], settle: settleSpans },
    both: { observers: [ledger.observe, tracing], settle: () => Promise.all([settleLedger(), settleSpans()]).then(() => undefined) },
  }[variant];
}

async function timedTurns(compiled: CompiledSyndicate, store: Store, { observers, settle }: Observing, turns: number, round: number, variant: Variant): Promise<{ samples: number[]; cpuUs: number }> {
  const samples: number[] = [];
  const cpu = process.cpuUsage();
  const sessionId = (i: number): string => `${variant}-${round}-${Math.floor(i / 10)}`;
  for (let i = 0; i < turns; i++) {
    const start = process.hrtime.bigint();
    for await (const _event of runTurn(compiled, { input: 'Should we open a second office?', store, stream: false, observers, sessionId: sessionId(i) })) {
      // drained
    }
    samples.push(Number(process.hrtime.bigint() - start) / 1_000);
  }
  await settle();
  // Every variant moves its own journaled events into the database inside its CPU figure (a read
  // of a session with journaled events does that): otherwise a variant that waits on the event
  // loop, as settling the ledger does, lets idle-time ingests run in its window.
  await store.readEvents(sessionId(turns - 1), { afterSeq: Number.MAX_SAFE_INTEGER });
  const used = process.cpuUsage(cpu);
  return { samples, cpuUs: used.user + used.system };
}

export async function benchObservability(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'syndicate-observe-'));
  const store = openSqliteStore(join(dir, 'observe.db'));
  const processor = new BatchSpanProcessor({ exporter: discard });
  const sink: SpanSink = { processor, resource: emptyResource(), scope: { name: 'bench' }, onError: (error) => console.error('tracing failed:', error) };
  const compiled = benchCouncil();
  const ledger = createUsageLedger({ store, syndicate: 'Bench Council', sessionId: null, onError: (error) => console.error('ledger write failed:', error) });
  const variants: Variant[] = ['off', 'ledger', 'tracing', 'both'];
  const results = new Map(variants.map((variant) => [variant, { samples: [] as number[], cpuUs: 0 }]));
  // Round -1 warms the JIT up for every variant and is not counted; the order rotates so no
  // variant always runs first in a round.
  for (let round = -1; round < ROUNDS; round++) {
    for (let i = 0; i < variants.length; i++) {
      const variant = variants[(i + Math.max(round, 0)) % variants.length]!;
      const turns = round < 0 ? WARMUP_TURNS : TURNS_PER_ROUND;
      const { samples, cpuUs } = await timedTurns(compiled, store, observingFor(variant, ledger, processor, sink), turns, round, variant);
      if (round < 0) continue;
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
  await processor.shutdown();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
