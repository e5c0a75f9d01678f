import { join } from 'node:path';
import { scratchDir } from '../support/scratchDir.js';
import { Role, type Message, type SendMessageRequest, type StreamResponse } from '@a2a-js/sdk';
import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory, RestTransportFactory, type Client } from '@a2a-js/sdk/client';
import { z } from 'zod';
import { agentIdFor, type ServedSyndicate } from '../../src/a2a/createA2aApp.js';
import { serveA2a, type A2aServer, type ServeA2aOptions } from '../../src/a2a/serveA2a.js';
import type { CompiledSyndicate } from '../../src/runtime/compileSyndicate.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import type { Store } from '../../src/store/store.js';
import { builtinTools, createToolRegistry } from '../../src/tools/registry.js';
import { defineTool } from '../../src/core/tool.js';

export type Binding = 'JSONRPC' | 'HTTP+JSON';
export const BINDINGS: readonly Binding[] = ['JSONRPC', 'HTTP+JSON'];

export function tempDbPath(): string {
  return join(scratchDir('a2a'), 'test.db');
}

/** A tool that holds the turn until the test releases it, or the turn is cancelled. */
export function createGate() {
  let open: () => void = () => undefined;
  let entered: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const reached = new Promise<void>((resolve) => (entered = resolve));
  const tool = defineTool({
    name: 'gate',
    description: 'Waits for the test.',
    inputSchema: z.object({}),
    execute: async (_input, ctx) => {
      entered();
      await new Promise<void>((resolve, reject) => {
        void opened.then(resolve);
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true });
      });
      return 'gate opened';
    },
  });
  return { tool, open, reached };
}

export const testTools = (...extra: Parameters<typeof createToolRegistry>[0]) => createToolRegistry([...builtinTools.values(), ...extra]);

export interface TestServer extends A2aServer {
  store: Store;
  /** The SQLite file of the store the fixture opened (unused when a store was given). */
  dbPath: string;
  /** Stops the server, then closes the store unless it was given. */
  stop(): Promise<void>;
}

export async function startServer(
  syndicates: CompiledSyndicate | readonly CompiledSyndicate[],
  options: Partial<Omit<ServeA2aOptions, 'agents' | 'store'>> & { dbPath?: string; store?: Store } = {},
): Promise<TestServer> {
  const list = Array.isArray(syndicates) ? syndicates : [syndicates as CompiledSyndicate];
  const agents: ServedSyndicate[] = list.map((syndicate) => ({ id: agentIdFor(syndicate.name), syndicate }));
  const given = options.store;
  const dbPath = options.dbPath ?? tempDbPath();
  const store = given ?? openSqliteStore(dbPath);
  const server = await serveA2a({ host: '127.0.0.1', port: 0, env: {}, version: '0.0.0-test', ...options, agents, store });
  return {
    ...server,
    store,
    dbPath,
    async stop() {
      await server.close();
      if (!given) await store.close();
    },
  };
}

/** A fetch that sends these headers on every request (the bearer token, a user id). */
export function fetchWith(headers: Record<string, string>): typeof fetch {
  return (input, init) => {
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) merged.set(name, value);
    return fetch(input, { ...init, headers: merged });
  };
}

/** The SDK's own client, on the given transport, for the agent whose card is under `baseUrl`. */
export async function clientFor(baseUrl: string, binding: Binding, headers: Record<string, string> = {}): Promise<Client> {
  const fetchImpl = fetchWith(headers);
  const factory = new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl }), new RestTransportFactory({ fetchImpl })],
    preferredTransports: [binding],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
  });
  // The card's full URL: a base URL with a path would lose it under the default absolute card path.
  return factory.createFromUrl(`${baseUrl}/.well-known/agent-card.json`, '');
}

export function userMessage(text: string, ids: { contextId?: string; taskId?: string } = {}): Message {
  return {
    messageId: crypto.randomUUID(),
    contextId: ids.contextId ?? '',
    taskId: ids.taskId ?? '',
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

export function sendRequest(text: string, ids: { contextId?: string; taskId?: string } = {}, configuration?: Partial<NonNullable<SendMessageRequest['configuration']>>): SendMessageRequest {
  return {
    tenant: '',
    message: userMessage(text, ids),
    configuration: configuration && { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: false, ...configuration },
    metadata: undefined,
  };
}

export async function collectStream(stream: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** The text of an A2A message or part list. */
export function textOf(parts: ReadonlyArray<{ content?: { $case: string; value?: unknown } }> | undefined): string {
  return (parts ?? []).map((part) => (part.content?.$case === 'text' ? String(part.content.value) : '')).join('');
}
