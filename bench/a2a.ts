import { fork, type ChildProcess } from 'node:child_process';
import type { A2aBenchReply, A2aBenchRequest, ServerKind } from './a2aServer.js';
import { report, summarize } from './stats.js';

// SendMessage throughput and latency of `serve-a2a` (a real turn on the scripted model, persisted)
// against bare @a2a-js/sdk servers on loopback, at 1, 16 and 64 concurrent clients; and the time
// to the first streamed event. The reference (`ratio`) is a minimal echo executor; a
// second bare server replays our answer's events (`ratio_same_events`), to show how much of the
// gap is the SDK's cost per event rather than the turn and its persistence. Each server runs with
// its client in a process of its own (see a2aServer.ts), so the client's cost is in every figure
// alike. Throughput is the median of interleaved rounds after a long warm-up: what a server that
// has been up for a while does, not its first second.

const CONCURRENCY = [1, 16, 64];
const WARMUP_MESSAGES = 1_500;
const ROUNDS = 3;
const MESSAGES_PER_ROUND = 1_000;

interface BenchServer {
  ask(request: A2aBenchRequest): Promise<A2aBenchReply>;
}

/** Forks one server process and waits until it serves. */
function startServer(kind: ServerKind, chunks?: readonly string[]): Promise<BenchServer> {
  const child: ChildProcess = fork(new URL('./a2aServer.js', import.meta.url), [kind, ...(chunks ? [JSON.stringify(chunks)] : [])]);
  const next = (): Promise<A2aBenchReply> =>
    new Promise((resolve, reject) => {
      const failed = (code: number | null): void => reject(new Error(`the ${kind} bench server exited (code ${code})`));
      child.once('exit', failed);
      child.once('message', (reply: A2aBenchReply) => {
        child.off('exit', failed);
        resolve(reply);
      });
    });
  const server: BenchServer = {
    ask(request) {
      const reply = next();
      child.send(request);
      return reply;
    },
  };
  return next().then(() => server);
}

async function expect<T extends A2aBenchReply['type']>(server: BenchServer, request: A2aBenchRequest, type: T): Promise<Extract<A2aBenchReply, { type: T }>> {
  const reply = await server.ask(request);
  if (reply.type !== type) throw new Error(`the bench server answered ${reply.type} to ${request.type}`);
  return reply as Extract<A2aBenchReply, { type: T }>;
}

interface Measured {
  perSecond: number[];
  latencies: number[];
}

async function measure(server: BenchServer, concurrency: number, into: Measured): Promise<void> {
  const sent = await expect(server, { type: 'send', concurrency, total: MESSAGES_PER_ROUND, warmUp: false }, 'sent');
  into.perSecond.push(sent.perSecond);
  into.latencies.push(...sent.latencies);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function benchA2a(): Promise<void> {
  const ours = await startServer('syndicate');
  const { chunks } = await expect(ours, { type: 'answer-chunks' }, 'chunks');
  // A blocking SendMessage's turn is published as one task event (createWholeTaskPublisher).
  report('a2a answer', { artifact_parts: chunks.length, events_per_task: 1, minimal_echo_events: 2 });
  const [minimal, sameEvents] = await Promise.all([startServer('minimal-echo'), startServer('same-events', chunks)]);
  const servers = [minimal, sameEvents, ours];
  try {
    for (const concurrency of CONCURRENCY) {
      // Warmed at the concurrency measured, long enough for the JIT to settle: the client opens a
      // connection per concurrent request (opening 64 stalled a few requests for 300-480 ms, bare
      // SDK and ours alike), and a cold window measured mostly compilation.
      for (const server of servers) await expect(server, { type: 'send', concurrency, total: WARMUP_MESSAGES, warmUp: true }, 'sent');
      const [sdk, same, served] = servers.map((): Measured => ({ perSecond: [], latencies: [] })) as [Measured, Measured, Measured];
      // Interleaved rounds, so a noisy moment on this shared machine hits every server alike.
      for (let round = 0; round < ROUNDS; round++) {
        await measure(minimal, concurrency, sdk);
        await measure(sameEvents, concurrency, same);
        await measure(ours, concurrency, served);
      }
      const sdkFigures = summarize(sdk.latencies);
      const servedFigures = summarize(served.latencies);
      const [sdkRate, sameEventsRate, servedRate] = [sdk, same, served].map(({ perSecond }) => median(perSecond)) as [number, number, number];
      report(`a2a SendMessage x${concurrency}`, {
        bare_sdk_rps: sdkRate,
        bare_p50_ms: sdkFigures.median / 1_000,
        bare_p99_ms: sdkFigures.p99 / 1_000,
        same_events_rps: sameEventsRate,
        syndicate_rps: servedRate,
        p50_ms: servedFigures.median / 1_000,
        p99_ms: servedFigures.p99 / 1_000,
        ratio: servedRate / sdkRate,
        ratio_same_events: servedRate / sameEventsRate,
      });
    }
    const { samples } = await expect(ours, { type: 'first-streamed', runs: 100 }, 'first-streamed');
    const streamed = summarize(samples);
    report('a2a first streamed event', { runs: 100, median_ms: streamed.median / 1_000, p99_ms: streamed.p99 / 1_000 });
  } finally {
    for (const server of servers) await expect(server, { type: 'stop' }, 'stopped');
  }
}
