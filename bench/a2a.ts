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
// against a bare @a2a-js/sdk server whose executor echoes, both on loopback in this process, at 1,
// 16 and 64 concurrent clients; and the time to the first streamed event.

const CONCURRENCY = [1, 16, 64];
const WARMUP = 30;

function request(text: string): SendMessageRequest {
  return {
    tenant: '',
    message: { messageId: randomUUID(), contextId: '', taskId: '', role: Role.ROLE_USER, parts: [textPart(text)], metadata: undefined, extensions: [], referenceTaskIds: [] },
    configuration: undefined,
    metadata: undefined,
  };
}

const echo: AgentExecutor = {
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

async function serveBareSdk(): Promise<{ url: string; server: Server }> {
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

async function sendMessages(client: Client, concurrency: number, total: number): Promise<{ perSecond: number; latencies: number[] }> {
  for (let i = 0; i < WARMUP; i++) await client.sendMessage(request('warm up'));
  const latencies: number[] = [];
  let started = 0;
  const begin = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started < total) {
        started++;
        const sent = performance.now();
        await client.sendMessage(request('Should our team adopt a four-day work week?'));
        latencies.push((performance.now() - sent) * 1_000);
      }
    }),
  );
  return { perSecond: total / ((performance.now() - begin) / 1_000), latencies };
}

async function firstStreamedEvent(client: Client, runs: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const sent = performance.now();
    for await (const event of client.sendMessageStream(request('Should our team adopt a four-day work week?'))) {
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
  const bare = await serveBareSdk();
  try {
    const oursClient = await clientOf(`${ours.url}/echo`);
    const bareClient = await clientOf(bare.url);
    for (const concurrency of CONCURRENCY) {
      const total = concurrency === 1 ? 300 : 800;
      const sdk = await sendMessages(bareClient, concurrency, total);
      const served = await sendMessages(oursClient, concurrency, total);
      const sdkFigures = summarize(sdk.latencies);
      const servedFigures = summarize(served.latencies);
      report(`a2a SendMessage x${concurrency}`, {
        bare_sdk_rps: sdk.perSecond,
        bare_p50_ms: sdkFigures.median / 1_000,
        bare_p99_ms: sdkFigures.p99 / 1_000,
        syndicate_rps: served.perSecond,
        p50_ms: servedFigures.median / 1_000,
        p99_ms: servedFigures.p99 / 1_000,
        ratio: served.perSecond / sdk.perSecond,
      });
    }
    const streamed = summarize(await firstStreamedEvent(oursClient, 100));
    report('a2a first streamed event', { runs: 100, median_ms: streamed.median / 1_000, p99_ms: streamed.p99 / 1_000 });
  } finally {
    await ours.close();
    await new Promise<void>((resolve) => bare.server.close(() => resolve()));
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
