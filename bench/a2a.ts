import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Role, TaskState, type AgentCard, type SendMessageRequest } from '@a2a-js/sdk';
import { ClientFactory, type Client } from '@a2a-js/sdk/client';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import express from 'express';
import { agentMessage, textPart } from '../src/a2a/messages.js';
import { serveA2a } from '../src/a2a/serveA2a.js';
import { defineAgent, defineSyndicate } from '../src/config/define.js';
import { compileSyndicate } from '../src/runtime/compileSyndicate.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import { report, summarize } from './stats.js';

// SendMessage throughput and latency of `serve-a2a` (a real turn on the scripted model, persisted)
// against bare @a2a-js/sdk servers, all on loopback in this process, at 1, 16 and 64 concurrent
// clients; and the time to the first streamed event. The reference (`ratio`) is a minimal
// echo executor; a second bare server replays our answer's events (`ratio_same_events`), to show
// how much of the gap is the SDK's cost per event rather than the turn and its persistence.
// Throughput is the median of interleaved rounds after a long warm-up: what a server that has been
// up for a while does, not its first second.

const CONCURRENCY = [1, 16, 64];
const WARMUP_MESSAGES = 1_500;
const ROUNDS = 3;
const MESSAGES_PER_ROUND = 1_000;
const MESSAGE = 'Should our team adopt a four-day work week?';

function request(text: string): SendMessageRequest {
  return {
    tenant: '',
    message: { messageId: randomUUID(), contextId: '', taskId: '', role: Role.ROLE_USER, parts: [textPart(text)], metadata: undefined, extensions: [], referenceTaskIds: [] },
    configuration: undefined,
    metadata: undefined,
  };
}

/** The reference: the message echoed back in the final status, nothing else. */
const minimalEcho: AgentExecutor = {
  async execute(context, bus) {
    const { taskId, contextId } = context;
    const timestamp = (): string => new Date().toISOString();
    bus.publish(
      AgentEvent.task({ id: taskId, contextId, status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: timestamp() }, artifacts: [], history: [context.userMessage], metadata: undefined }),
    );
    bus.publish(
      AgentEvent.statusUpdate({ taskId, contextId, status: { state: TaskState.TASK_STATE_COMPLETED, message: agentMessage('echo', taskId, contextId), timestamp: timestamp() }, metadata: undefined }),
    );
  },
  async cancelTask() {},
};

/**
 * This bare server's executor answers each message with the task lifecycle ours publishes (the
 * task, already working; the answer as artifact chunks; `completed`) and the same chunks ours streamed
 * for the same message: every event costs the SDK a task load, clone and save, so an echo with
 * fewer events would not be measuring like with like.
 */
function echoOf(chunks: readonly string[]): AgentExecutor {
  return {
    async execute(context, bus) {
      const { taskId, contextId } = context;
      const status = (state: TaskState): void =>
        bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: { state, message: undefined, timestamp: new Date().toISOString() }, metadata: undefined }));
      bus.publish(
        AgentEvent.task({ id: taskId, contextId, status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: new Date().toISOString() }, artifacts: [], history: [context.userMessage], metadata: undefined }),
      );
      chunks.forEach((text, index) => {
        const artifact = { artifactId: 'answer', name: 'answer', description: '', parts: [textPart(text)], metadata: undefined, extensions: [] };
        bus.publish(AgentEvent.artifactUpdate({ taskId, contextId, artifact, append: index > 0, lastChunk: index === chunks.length - 1, metadata: undefined }));
      });
      status(TaskState.TASK_STATE_COMPLETED);
    },
    async cancelTask() {},
  };
}

/** The text of each chunk our server streamed for the bench's message, as its task's artifact keeps them. */
async function answerChunks(client: Client): Promise<string[]> {
  const result = await client.sendMessage(request(MESSAGE));
  const parts = 'id' in result ? (result.artifacts[0]?.parts ?? []) : [];
  const chunks = parts.flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : []));
  if (chunks.length === 0) throw new Error('the served syndicate answered the bench message with no text artifact');
  return chunks;
}

async function serveBareSdk(echo: AgentExecutor): Promise<{ url: string; server: Server }> {
  const app = express();
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const card: AgentCard = {
    name: 'bare',
    description: 'echo',
    supportedInterfaces: [{ url: `${url}/jsonrpc`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
    provider: undefined,
    version: '1',
    capabilities: { streaming: true, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
    signatures: [],
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), echo);
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }));
  app.use('/jsonrpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  return { url, server };
}

async function clientOf(baseUrl: string): Promise<Client> {
  return new ClientFactory().createFromUrl(`${baseUrl}/.well-known/agent-card.json`, '');
}

/** `total` messages from `concurrency` clients at once, each sent when the client's last answer arrived. */
async function sendConcurrently(client: Client, concurrency: number, total: number, text: string, latencies: number[]): Promise<void> {
  let started = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started < total) {
        started++;
        const sent = performance.now();
        await client.sendMessage(request(text));
        latencies.push((performance.now() - sent) * 1_000);
      }
    }),
  );
}

interface Measured {
  perSecond: number[];
  latencies: number[];
}

/** One timed window of `total` messages; its latencies join the server's. */
async function measure(client: Client, concurrency: number, total: number, into: Measured): Promise<void> {
  const begin = performance.now();
  await sendConcurrently(client, concurrency, total, MESSAGE, into.latencies);
  into.perSecond.push(total / ((performance.now() - begin) / 1_000));
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function firstStreamedEvent(client: Client, runs: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const sent = performance.now();
    for await (const event of client.sendMessageStream(request(MESSAGE))) {
      if (samples.length === i) samples.push((performance.now() - sent) * 1_000);
      void event;
    }
  }
  return samples;
}

export async function benchA2a(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'syndicate-a2a-bench-'));
  const store = openSqliteStore(join(dir, 'a2a.db'));
  const syndicate = compileSyndicate(defineSyndicate(defineAgent('Echo', { model: 'scripted' }), { name: 'Echo', memorySystem: 'session-only' }));
  // The rate limiter would turn the benchmark away: it measures the server, not the limit.
  const ours = await serveA2a({ agents: [{ id: 'echo', syndicate }], store, host: '127.0.0.1', port: 0, env: {}, version: 'bench', rateLimit: { perSecond: 1e9, burst: 1e9 } });
  const bare: Array<{ url: string; server: Server }> = [];
  try {
    const oursClient = await clientOf(`${ours.url}/echo`);
    const chunks = await answerChunks(oursClient);
    report('a2a answer', { artifact_chunks: chunks.length, events_per_task: chunks.length + 2, minimal_echo_events: 2 });
    bare.push(await serveBareSdk(minimalEcho), await serveBareSdk(echoOf(chunks)));
    const [minimalClient, sameEventsClient] = await Promise.all(bare.map(({ url }) => clientOf(url)));
    const servers = [minimalClient!, sameEventsClient!, oursClient];
    for (const concurrency of CONCURRENCY) {
      // Warmed at the concurrency measured, long enough for the JIT to settle: the client opens a
      // connection per concurrent request (opening 64 stalled a few requests for 300-480 ms, bare
      // SDK and ours alike), and a cold window measured mostly compilation.
      for (const client of servers) await sendConcurrently(client, concurrency, WARMUP_MESSAGES, 'warm up', []);
      const [sdk, sameEvents, served] = servers.map((): Measured => ({ perSecond: [], latencies: [] }));
      // Interleaved rounds, so a noisy moment on this shared machine hits every server alike.
      for (let round = 0; round < ROUNDS; round++) {
        await measure(minimalClient!, concurrency, MESSAGES_PER_ROUND, sdk!);
        await measure(sameEventsClient!, concurrency, MESSAGES_PER_ROUND, sameEvents!);
        await measure(oursClient, concurrency, MESSAGES_PER_ROUND, served!);
      }
      const sdkFigures = summarize(sdk!.latencies);
      const servedFigures = summarize(served!.latencies);
      const [sdkRate, sameEventsRate, servedRate] = [sdk!, sameEvents!, served!].map(({ perSecond }) => median(perSecond));
      report(`a2a SendMessage x${concurrency}`, {
        bare_sdk_rps: sdkRate!,
        bare_p50_ms: sdkFigures.median / 1_000,
        bare_p99_ms: sdkFigures.p99 / 1_000,
        same_events_rps: sameEventsRate!,
        syndicate_rps: servedRate!,
        p50_ms: servedFigures.median / 1_000,
        p99_ms: servedFigures.p99 / 1_000,
        ratio: servedRate! / sdkRate!,
        ratio_same_events: servedRate! / sameEventsRate!,
      });
    }
    const streamed = summarize(await firstStreamedEvent(oursClient, 100));
    report('a2a first streamed event', { runs: 100, median_ms: streamed.median / 1_000, p99_ms: streamed.p99 / 1_000 });
  } finally {
    await ours.close();
    for (const { server } of bare) await new Promise<void>((resolve) => server.close(() => resolve()));
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
