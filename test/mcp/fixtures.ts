import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { defineAgent, defineSyndicate } from '../../src/config/define.js';
import type { MemorySystem } from '../../src/config/schema.js';
import type { ServedSyndicate } from '../../src/mcp/askTool.js';
import { serveMcpHttp, type McpHttpOptions, type McpHttpServer } from '../../src/mcp/http/serveHttp.js';
import { syndicateServerFactory } from '../../src/mcp/syndicateServer.js';
import { compileSyndicate, type CompiledSyndicate } from '../../src/runtime/compileSyndicate.js';
import { openStore } from '../../src/store/openStore.js';
import type { Store } from '../../src/store/store.js';
import { builtinTools, createToolRegistry } from '../../src/tools/registry.js';
import { defineTool } from '../../src/core/tool.js';

/** Protocol eras a client can speak: 'legacy' is the 2025-11-25 handshake, 'auto' negotiates 2026-07-28. */
export type Era = 'legacy' | 'auto';

/** A tool that blocks until its call is aborted, so a test can cancel a turn while it runs. */
export function holdTool(onAbort: () => void) {
  return defineTool({
    name: 'hold',
    description: 'Waits until the turn is cancelled.',
    inputSchema: z.object({}),
    execute: (_input, ctx) =>
      new Promise<never>((_resolve, reject) => {
        ctx.signal.addEventListener('abort', () => {
          onAbort();
          reject(new Error('cancelled'));
        });
      }),
  });
}

/**
 * The Clerk, on the scripted model: sums with the calculator ("sum"), or holds until the turn is
 * cancelled ("hold").
 */
export function clerk(options: { memorySystem?: MemorySystem; onHoldAborted?: () => void; name?: string } = {}): CompiledSyndicate {
  const root = defineAgent('Clerk', {
    model: 'scripted',
    file: 'clerk.yaml',
    tools: ['calculator', 'hold'],
    script: [
      { match: 'hold', tool_calls: [{ tool: 'hold', args: {} }] },
      { match: 'sum', tool_calls: [{ tool: 'calculator', args: { expression: '2 + 3' } }] },
      { match: 'result', reply: 'The sum is 5.' },
    ],
  });
  const definition = defineSyndicate(root, { name: options.name ?? 'Clerk', description: 'Adds numbers.', file: 'clerk.yaml', memorySystem: options.memorySystem ?? 'session-only' });
  const tools = createToolRegistry([...builtinTools.values(), holdTool(options.onHoldAborted ?? (() => undefined))]);
  return compileSyndicate(definition, { tools, offline: true });
}

/** An agent on a provider whose API key is not set: its turn fails at the first model call, with no network. */
export function keyless(): CompiledSyndicate {
  const root = defineAgent('Keyless', { model: 'gpt-4.1-mini', file: 'keyless.yaml' });
  return compileSyndicate(defineSyndicate(root, { name: 'Keyless', file: 'keyless.yaml', memorySystem: 'session-only' }), { env: {} });
}

export interface TestStore {
  store: Store;
  dispose(): Promise<void>;
}

export async function tempStore(): Promise<TestStore> {
  const dir = mkdtempSync(join(tmpdir(), 'syndicate-mcp-'));
  const store = await openStore(join(dir, 'test.db'));
  return {
    store,
    async dispose() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function served(syndicate: CompiledSyndicate, store: Store): ServedSyndicate {
  return { syndicate, store: syndicate.memorySystem === 'internal-only' ? undefined : store };
}

export function serveSyndicates(syndicates: readonly ServedSyndicate[], options: Partial<McpHttpOptions> = {}): Promise<McpHttpServer> {
  return serveMcpHttp(syndicateServerFactory({ syndicates, version: '0.0.0-test', caller: 'http' }), { host: '127.0.0.1', port: 0, ...options });
}

export async function connectHttp(url: string, era: Era = 'legacy', headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'syndicate-test', version: '0.0.0' }, { versionNegotiation: { mode: era } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** The text of a tool result's first content block. */
export function textOf(result: { content?: unknown }): string {
  const first = (result.content as Array<{ type: string; text?: string }> | undefined)?.[0];
  if (first?.type !== 'text' || first.text === undefined) throw new Error(`no text content in ${JSON.stringify(result)}`);
  return first.text;
}
