import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { AgentCard } from 'a2a-sdk-v03';
import { DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor, type ExecutionEventBus, type RequestContext } from 'a2a-sdk-v03/server';
import { A2AExpressApp } from 'a2a-sdk-v03/server/express';

// A remote agent that still speaks A2A 0.3, built on the 0.3 SDK: it answers every message with
// one streamed artifact, so the client's 0.3 compatibility is checked against that SDK's reading.

export interface LegacyServer {
  cardUrl: string;
  stop(): Promise<void>;
}

function createExecutor(answer: string): AgentExecutor {
  return {
    async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
      const { taskId, contextId } = context;
      bus.publish({ kind: 'task', id: taskId, contextId, status: { state: 'submitted', timestamp: new Date().toISOString() }, history: [context.userMessage] });
      bus.publish({ kind: 'artifact-update', taskId, contextId, artifact: { artifactId: 'answer', parts: [{ kind: 'text', text: answer }] }, lastChunk: true });
      bus.publish({ kind: 'status-update', taskId, contextId, status: { state: 'completed', timestamp: new Date().toISOString() }, final: true });
      bus.finished();
    },
    async cancelTask(): Promise<void> {},
  };
}

export async function startLegacyServer(answer: string): Promise<LegacyServer> {
  const app = express();
  const http: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const baseUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const card: AgentCard = {
    name: 'Old Weather',
    description: 'Forecasts, the 0.3 way.',
    url: baseUrl,
    preferredTransport: 'JSONRPC',
    protocolVersion: '0.3.0',
    version: '1.0.0',
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
  };
  new A2AExpressApp(new DefaultRequestHandler(card, new InMemoryTaskStore(), createExecutor(answer))).setupRoutes(app);
  return {
    cardUrl: `${baseUrl}/.well-known/agent-card.json`,
    stop: () =>
      new Promise((resolve, reject) => {
        http.closeAllConnections();
        http.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
