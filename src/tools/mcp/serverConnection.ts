import type { CallToolResult, Client, Tool as McpToolInfo } from '@modelcontextprotocol/client';
import { serverLabel, type McpServerSpec } from './serverSpec.js';
import type { McpClientSettings } from './settings.js';
import { sanitizeName } from './toolNames.js';

// One MCP server of one agent: connected in the background, its tool list cached until the
// server says it changed or the TTL passes, and reconnected after a crash or a hang. A server
// that worked and then died is retried at once; failed attempts back off exponentially, so a
// server that stays down costs each turn nothing but a warning.

export type { McpToolInfo };

export type ServerTools = { ok: true; server: string; tools: McpToolInfo[] } | { ok: false; server: string; problem: string };

export interface McpServerConnection {
  /** Starts connecting without waiting, unless connected, connecting, or backing off. */
  open(): void;
  /** The server's tools for a turn, or why it has none. Waits for a connection in progress. */
  tools(signal: AbortSignal): Promise<ServerTools>;
  /** Calls a tool; throws with a readable message when the server fails. */
  call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult>;
  close(): Promise<void>;
}

interface Live {
  client: Client;
  sdk: ClientModule;
  name: string;
  stderrTail: (() => string) | undefined;
}

function serverNameOf(spec: McpServerSpec, client: Client): string {
  if (spec.name !== undefined) return spec.name;
  const reported = client.getServerVersion()?.name;
  return sanitizeName(reported ?? (spec.transport === 'stdio' ? spec.command : spec.url.hostname));
}

type ClientModule = typeof import('./openClient.js');

// The SDK is loaded with the first connection: it takes about a second to import here, which
// a syndicate without MCP servers must not pay.
const loadClientModule = (): Promise<ClientModule> => import('./openClient.js');

/** Resolves with `promise`, or rejects as soon as `signal` aborts (the promise goes on in the background). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export function createServerConnection(spec: McpServerSpec, settings: McpClientSettings): McpServerConnection {
  const label = serverLabel(spec);
  const lifetime = new AbortController();
  let live: Live | undefined;
  let connecting: Promise<void> | undefined;
  let failures = 0;
  let retryAt = 0;
  let problem = 'not connected yet';
  let cached: { tools: McpToolInfo[]; at: number } | undefined;

  const backoff = (): number => Math.min(settings.backoffMaxMs, settings.backoffBaseMs * 2 ** (failures - 1));
  const failed = (reason: string, permanent = false): void => {
    failures++;
    problem = reason;
    retryAt = permanent ? Infinity : Date.now() + backoff();
  };
  const said = (current: Live): string => {
    const tail = current.stderrTail?.();
    return tail ? `; it wrote: ${tail}` : '';
  };

  /** Forgets a connection that misbehaved; the next use reconnects (after the backoff). */
  const drop = (current: Live, reason: string): void => {
    if (live !== current) return;
    live = undefined;
    cached = undefined;
    failed(reason);
    void current.client.close().catch(() => undefined);
  };

  const connect = (): Promise<void> => {
    connecting ??= (async () => {
      const sdk = await loadClientModule();
      const opened = await sdk
        .openClient(spec, {
          policy: settings.policy,
          env: settings.env,
          timeoutMs: settings.connectTimeoutMs,
          signal: lifetime.signal,
          onToolsChanged: () => {
            cached = undefined;
          },
        })
        // openClient reports expected failures as values; anything else still only fails this attempt.
        .catch((error: unknown) => ({ ok: false as const, problem: `could not connect: ${(error as Error).message}`, permanent: undefined }));
      if (!opened.ok) return failed(opened.problem, opened.permanent);
      if (lifetime.signal.aborted) return void (await opened.client.close());
      const current: Live = { client: opened.client, sdk, name: serverNameOf(spec, opened.client), stderrTail: opened.stderrTail };
      failures = 0;
      cached = undefined;
      live = current;
      opened.client.onclose = () => {
        if (live !== current) return;
        live = undefined;
        cached = undefined;
        // It worked until now: the next turn reconnects at once.
        problem = `the server closed the connection${said(current)}`;
        retryAt = Date.now();
      };
    })().finally(() => {
      connecting = undefined;
    });
    return connecting;
  };

  const ready = async (signal: AbortSignal): Promise<Live | string> => {
    if (live) return live;
    if (lifetime.signal.aborted) return 'its connections were closed';
    if (connecting === undefined) {
      const wait = retryAt - Date.now();
      if (wait === Infinity) return problem;
      if (wait > 0) return `${problem} (next attempt in ${Math.ceil(wait / 1000)} s)`;
      void connect();
    }
    await untilAborted(connecting!, signal);
    return live ?? problem;
  };

  return {
    open() {
      // Only an internal fault (the SDK failing to load) rejects here; the next tools() call meets it again and fails the turn with it.
      if (!live && connecting === undefined && !lifetime.signal.aborted && Date.now() >= retryAt) connect().catch(() => undefined);
    },

    async tools(signal) {
      const current = await ready(signal);
      if (typeof current === 'string') return { ok: false, server: label, problem: current };
      if (cached && Date.now() - cached.at < settings.toolListTtlMs) return { ok: true, server: current.name, tools: cached.tools };
      try {
        const { tools } = await current.client.listTools(undefined, { timeout: settings.requestTimeoutMs, signal, cacheMode: 'refresh' });
        if (live === current) cached = { tools, at: Date.now() };
        return { ok: true, server: current.name, tools };
      } catch (error) {
        if (signal.aborted) throw error;
        const reason = current.sdk.isRequestTimeout(error) ? `it did not list its tools within ${settings.requestTimeoutMs} ms` : `listing its tools failed: ${(error as Error).message}`;
        drop(current, reason);
        return { ok: false, server: current.name, problem: reason };
      }
    },

    async call(tool, args, signal) {
      const current = await ready(signal);
      if (typeof current === 'string') throw new Error(`MCP server '${label}' is unavailable: ${current}`);
      try {
        // onprogress makes the SDK ask for progress notifications, each of which restarts the timeout.
        return await current.client.callTool(
          { name: tool, arguments: args },
          { timeout: settings.requestTimeoutMs, resetTimeoutOnProgress: true, onprogress: () => undefined, signal },
        );
      } catch (error) {
        if (signal.aborted) throw error;
        if (current.sdk.isRequestTimeout(error)) {
          const silent = `did not answer ${tool} within ${settings.requestTimeoutMs} ms`;
          drop(current, `it ${silent}`);
          throw new Error(`MCP server '${current.name}' ${silent}, so it will be reconnected`);
        }
        const gone = live !== current ? ` (${problem})` : '';
        throw new Error(`MCP server '${current.name}' failed: ${(error as Error).message}${gone}`);
      }
    },

    async close() {
      lifetime.abort(new Error('MCP connections closed'));
      await connecting?.catch(() => undefined);
      const current = live;
      live = undefined;
      await current?.client.close().catch(() => undefined);
    },
  };
}
