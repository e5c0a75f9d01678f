import { afterEach } from 'vitest';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { compileSyndicate, type CompileOptions } from '../../../src/runtime/compileSyndicate.js';
import type { AgentDefinition, SyndicateDefinition } from '../../../src/config/definition.js';
import { createPlatform, type Platform } from '../../../src/platform/createPlatform.js';
import type { ApiCaller } from '../../../src/server/caller.js';
import type { LoadedSyndicate, ServerContext, SyndicateRegistry, TurnService } from '../../../src/server/context.js';
import { mountRoutes } from '../../../src/server/http/route.js';
import { problem } from '../../../src/server/http/problem.js';
import { createTurnService } from '../../../src/server/turns/turnService.js';
import { agentIdFor } from '../../../src/a2a/createA2aApp.js';
import type { TurnEvent } from '../../../src/core/events.js';
import { syndicate, tempDbPath } from '../../runtime/fixtures.js';

// A tiny server for the turn routes: a real SQLite store through the platform, syndicates on the
// scripted model, and bearer tokens from a map. `alice` and `bob` are members; `root` is an admin.

export const CALLERS: ReadonlyMap<string, ApiCaller> = new Map([
  ['alice-token', { userId: 'alice', role: 'member', via: 'key' }],
  ['bob-token', { userId: 'bob', role: 'member', via: 'key' }],
  ['viewer-token', { userId: 'vera', role: 'viewer', via: 'key' }],
]);

export interface TurnServer {
  /** http://127.0.0.1:<port>/api/v1 */
  api: string;
  platform: Platform;
  turns: TurnService;
  warnings: string[];
  close(): Promise<void>;
}

/** A syndicate as the registry would hold it, compiled from `root` on the scripted model. */
export function served(root: AgentDefinition, options: CompileOptions = {}, overrides: Partial<SyndicateDefinition> = {}): LoadedSyndicate {
  const definition = syndicate(root, overrides);
  const compiled = compileSyndicate(definition, options);
  return { id: agentIdFor(compiled.name), name: compiled.name, file: compiled.file, definition, compiled, warnings: [], loadedAt: 0 };
}

/** A registry that serves `syndicates` as they are (no files, no reloads). */
export function registry(syndicates: readonly LoadedSyndicate[]): SyndicateRegistry {
  const entries = syndicates.map((current) => ({ id: current.id, file: current.file, current, error: undefined }));
  return { list: () => entries, get: (id) => entries.find((entry) => entry.id === id) };
}

export async function startTurnServer(syndicates: readonly LoadedSyndicate[]): Promise<TurnServer> {
  const warnings: string[] = [];
  const platform = await createPlatform({ store: tempDbPath(), env: {}, warn: (message) => warnings.push(message) });
  const ctx: ServerContext = {
    platform,
    syndicates: registry(syndicates),
    authenticate: async (req) => CALLERS.get(req.get('authorization')?.replace(/^Bearer /, '') ?? '') ?? problem(401, 'send Authorization: Bearer <api key>'),
    warn: (message) => warnings.push(message),
  };
  const turns = await createTurnService(ctx);
  const app = express();
  const router = express.Router();
  router.use(express.json());
  mountRoutes(router, turns.routes, { authenticate: ctx.authenticate, warn: ctx.warn });
  app.use('/api/v1', router);
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const { port } = server.address() as AddressInfo;
  return {
    api: `http://127.0.0.1:${port}/api/v1`,
    platform,
    turns,
    warnings,
    async close() {
      await turns.drain(0);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await platform.close();
    },
  };
}

/** Starts a turn server for the test that calls it (start(...syndicates)), closed once that test ends. */
export function useTurnServer(): (...syndicates: LoadedSyndicate[]) => Promise<TurnServer> {
  let server: TurnServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return async (...syndicates) => (server = await startTurnServer(syndicates));
}

export const auth = (token = 'alice-token'): Record<string, string> => ({ authorization: `Bearer ${token}` });

export function postTurn(api: string, body: Record<string, unknown>, token = 'alice-token', signal?: AbortSignal): Promise<Response> {
  return fetch(`${api}/turns`, { method: 'POST', headers: { ...auth(token), 'content-type': 'application/json' }, body: JSON.stringify(body), signal });
}

export function followSession(api: string, sessionId: string, lastEventId?: string, token = 'alice-token', signal?: AbortSignal): Promise<Response> {
  return fetch(`${api}/sessions/${encodeURIComponent(sessionId)}/stream`, { headers: { ...auth(token), ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }) }, signal });
}

/** An SSE message of Syndicate's own format. */
export interface OwnMessage {
  event: string;
  id: number | undefined;
  data: TurnEvent & { seq?: number };
}

/** A minimal SSE reader: yields each message's event, id and JSON data (comment lines are skipped). */
export async function* readOwnEvents(response: Response): AsyncGenerator<OwnMessage> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields = new Map<string, string>();
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
      }
      if (!fields.has('data')) continue;
      yield { event: fields.get('event') ?? 'message', id: fields.has('id') ? Number(fields.get('id')) : undefined, data: JSON.parse(fields.get('data')!) as OwnMessage['data'] };
    }
  }
}

/** Every message until the stream ends. */
export async function readAll(response: Response): Promise<OwnMessage[]> {
  const messages: OwnMessage[] = [];
  for await (const message of readOwnEvents(response)) messages.push(message);
  return messages;
}

/** Reads until a message satisfies `until` (included), then leaves the rest of the stream unread. */
export async function readUntil(events: AsyncGenerator<OwnMessage>, until: (message: OwnMessage) => boolean): Promise<OwnMessage[]> {
  const messages: OwnMessage[] = [];
  for await (const message of events) {
    messages.push(message);
    if (until(message)) break;
  }
  return messages;
}
