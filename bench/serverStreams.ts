import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { agentIdFor } from '../src/a2a/createA2aApp.js';
import { defineAgent, defineSyndicate } from '../src/config/define.js';
import { createPlatform } from '../src/platform/createPlatform.js';
import { compileSyndicate } from '../src/runtime/compileSyndicate.js';
import type { ServerContext, SyndicateRegistry } from '../src/server/context.js';
import { mountRoutes } from '../src/server/http/route.js';
import { createTurnService } from '../src/server/turns/turnService.js';
import { report, summarize } from './stats.js';

// Streamed offline turns through the server's turn routes (POST /api/v1/turns, scripted model,
// real SQLite) against a bare node:http server replaying the same SSE events per request:
// turns/s of each, their ratio (target >= 0.8x) and the time to the first streamed event. Client
// and servers share the process: the CPU time per turn of each, and its ratio, are the figures
// to compare when other work shares the machine.

const CONCURRENCY = [1, 16, 64] as const;
const TURNS_PER_LEVEL = 256;

interface Measured {
  perSecond: number;
  /** The process's CPU time (every thread, client included) per turn: steadier than turns/s on a shared machine. */
  cpuMsPerTurn: number;
  firstEventMs: number[];
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Posts one request and reads its SSE body to the end; returns ms to the first chunk and the chunks. */
async function streamOnce(url: string, init: RequestInit): Promise<{ firstMs: number; chunks: string[] }> {
  const start = performance.now();
  const response = await fetch(url, init);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let firstMs = Number.NaN;
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (Number.isNaN(firstMs)) firstMs = performance.now() - start;
    text += value;
  }
  return { firstMs, chunks: text.split('\n\n').filter((block) => block.length > 0).map((block) => `${block}\n\n`) };
}

async function measure(concurrency: number, total: number, one: (i: number) => Promise<number>): Promise<Measured> {
  const firstEventMs: number[] = [];
  let next = 0;
  const start = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) firstEventMs.push(await one(next++));
    }),
  );
  const used = process.cpuUsage(cpu);
  return { perSecond: total / ((performance.now() - start) / 1000), cpuMsPerTurn: (used.user + used.system) / 1000 / total, firstEventMs };
}

export interface BenchTurnServer {
  /** http://127.0.0.1:<port>/api/v1 */
  api: string;
  syndicateId: string;
  /** The request that posts a turn to session `s-<i>`. */
  post(i: number | string): RequestInit;
  close(): Promise<void>;
}

/** The server's turn routes over a real SQLite store and a scripted echo syndicate, on loopback. */
export async function startBenchTurnServer(): Promise<BenchTurnServer> {
  const dir = mkdtempSync(join(tmpdir(), 'syndicate-srvbench-'));
  const platform = await createPlatform({ store: join(dir, 'bench.db'), env: {}, warn: () => {} });
  const definition = defineSyndicate(defineAgent('Echo', { model: 'scripted' }), { name: 'Bench Echo', memorySystem: 'session-only' });
  const compiled = compileSyndicate(definition);
  const current = { id: agentIdFor(compiled.name), name: compiled.name, file: 'bench.yaml', definition, compiled, warnings: [], loadedAt: 0 };
  const entries = [{ id: current.id, file: current.file, current, error: undefined }];
  const syndicates: SyndicateRegistry = { list: () => entries, get: (id) => entries.find((entry) => entry.id === id) };
  const ctx: ServerContext = { platform, syndicates, authenticate: async () => ({ userId: 'bench', role: 'member', via: 'key' }), warn: () => {} };
  const turns = await createTurnService(ctx);
  const app = express();
  const router = express.Router();
  router.use(express.json());
  mountRoutes(router, turns.routes, { authenticate: ctx.authenticate, warn: ctx.warn });
  app.use('/api/v1', router);
  const server = createServer(app);
  const api = `${await listen(server)}/api/v1`;
  return {
    api,
    syndicateId: current.id,
    post: (i) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ syndicate: current.id, sessionId: `s-${i}`, message: 'Should our team adopt a four-day work week?' }) }),
    async close() {
      await turns.drain(0);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await platform.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function benchServerStreams(): Promise<void> {
  const ours = await startBenchTurnServer();
  const oursUrl = `${ours.api}/turns`;
  const post = ours.post;

  // The reference takes the same request (its body read, as any server must before it answers)
  // and replays the SSE messages one real turn streamed, each written on its own.
  const sample = await streamOnce(oursUrl, post(-1));
  const bare = createServer(async (req, res) => {
    for await (const _chunk of req);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const chunk of sample.chunks) res.write(chunk);
    res.end();
  });
  const bareUrl = await listen(bare);
  console.log(`server streams: ${sample.chunks.length} SSE events, ${sample.chunks.join('').length} bytes per turn`);

  let session = 0;
  for (const concurrency of CONCURRENCY) {
    await measure(concurrency, 32, async () => (await streamOnce(oursUrl, post(session++))).firstMs);
    const server = await measure(concurrency, TURNS_PER_LEVEL, async () => (await streamOnce(oursUrl, post(session++))).firstMs);
    const reference = await measure(concurrency, TURNS_PER_LEVEL, async () => (await streamOnce(bareUrl, post(session++))).firstMs);
    const s = summarize(server.firstEventMs);
    const r = summarize(reference.firstEventMs);
    report(`server streams c=${concurrency}`, {
      server_turns_s: server.perSecond,
      bare_turns_s: reference.perSecond,
      ratio: server.perSecond / reference.perSecond,
      server_cpu_ms: server.cpuMsPerTurn,
      bare_cpu_ms: reference.cpuMsPerTurn,
      cpu_ratio: reference.cpuMsPerTurn / server.cpuMsPerTurn,
      first_p50_added_ms: s.median - r.median,
      first_p99_added_ms: s.p99 - r.p99,
    });
  }
  bare.closeAllConnections();
  await Promise.all([ours.close(), new Promise((resolve) => bare.close(resolve))]);
}
