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

// One server of the A2A bench and its client, in a process of its own (forked by a2a.ts): a server
// sharing the process with the others ran ~8% slower at one client than alone, in a heap that
// the bare servers' in-memory task stores kept growing and with the SDK's code warmed on their
// executors. The parent sends A2aBenchRequest messages and gets A2aBenchReply messages back.

export type ServerKind = 'minimal-echo' | 'same-events' | 'syndicate';

export type A2aBenchRequest =
  | { type: 'send'; concurrency: number; total: number; warmUp: boolean }
  | { type: 'answer-chunks' }
  | { type: 'first-streamed'; runs: number }
  | { type: 'stop' };

export type A2aBenchReply =
  | { type: 'ready' }
  | { type: 'sent'; perSecond: number; latencies: number[] }
  | { type: 'chunks'; chunks: string[] }
  | { type: 'first-streamed'; samples: number[] }
  | { type: 'stopped' };

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
 * This bare server's executor answers each message with what ours publishes for a blocking
 * SendMessage (one task, completed, with the answer as its artifact) and the same answer ours gave
 * for the same message: every event costs the SDK a task load, clone and save, so an echo with
 * other events would not be measuring like with like.
 */
function echoOf(chunks: readonly string[]): AgentExecutor {
  return {
    async execute(context, bus) {
      const { taskId, contextId } = context;
      const artifact = { artifactId: 'answer', name: 'answer', description: '', parts: chunks.map((text) => textPart(text)), metadata: undefined, extensions: [] };
      const status = { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: new Date().toISOString() };
      bus.publish(AgentEvent.task({ id: taskId, contextId, status, artifacts: [artifact], history: [context.userMessage], metadata: undefined }));
    },
    async cancelTask() {},
  };
}

/** The text of each part of our answer to the bench's message, as its task's artifact keeps them. */
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

interface Served {
  client: Client;
  close(): Promise<void>;
}

async function serveBare(executor: AgentExecutor): Promise<Served> {
  const { url, server } = await serveBareSdk(executor);
  return { client: await clientOf(url), close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function serveSyndicate(): Promise<Served> {
  const dir = mkdtempSync(join(tmpdir(), 'syndicate-a2a-bench-'));
  const store = openSqliteStore(join(dir, 'a2a.db'));
  const syndicate = compileSyndicate(defineSyndicate(defineAgent('Echo', { model: 'scripted' }), { name: 'Echo', memorySystem: 'session-only' }));
  // The rate limiter would turn the benchmark away: it measures the server, not the limit.
  const ours = await serveA2a({ agents: [{ id: 'echo', syndicate }], store, host: '127.0.0.1', port: 0, env: {}, version: 'bench', rateLimit: { perSecond: 1e9, burst: 1e9 } });
  return {
    client: await clientOf(`${ours.url}/echo`),
    async close() {
      await ours.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function serve(kind: ServerKind, chunks: readonly string[]): Promise<Served> {
  if (kind === 'syndicate') return serveSyndicate();
  return serveBare(kind === 'minimal-echo' ? minimalEcho : echoOf(chunks));
}

async function answer(served: Served, message: A2aBenchRequest): Promise<A2aBenchReply> {
  switch (message.type) {
    case 'send': {
      const latencies: number[] = [];
      const begin = performance.now();
      await sendConcurrently(served.client, message.concurrency, message.total, message.warmUp ? 'warm up' : MESSAGE, latencies);
      return { type: 'sent', perSecond: message.total / ((performance.now() - begin) / 1_000), latencies: message.warmUp ? [] : latencies };
    }
    case 'answer-chunks':
      return { type: 'chunks', chunks: await answerChunks(served.client) };
    case 'first-streamed':
      return { type: 'first-streamed', samples: await firstStreamedEvent(served.client, message.runs) };
    case 'stop':
      await served.close();
      return { type: 'stopped' };
  }
}

const [kind, chunksJson] = process.argv.slice(2) as [ServerKind, string | undefined];
const served = await serve(kind, chunksJson === undefined ? [] : (JSON.parse(chunksJson) as string[]));
process.on('message', (message: A2aBenchRequest) => {
  void answer(served, message).then(
    (reply) => {
      process.send!(reply);
      if (reply.type === 'stopped') process.disconnect();
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});
process.send!({ type: 'ready' } satisfies A2aBenchReply);
