import { Client, SdkError, SdkErrorCode, SdkHttpError, SSEClientTransport, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createGuardedFetch } from '../guards/guardedFetch.js';
import { urlProblem, type NetworkPolicy } from '../guards/ssrf.js';
import { resolveHeaders, resolveStdioEnv, type McpServerSpec } from './serverSpec.js';

// Opens one MCP client connection. HTTP servers are tried over Streamable HTTP first; a
// server that refuses that with a 4xx (the spec's test for an HTTP+SSE-only server) is tried
// again over the deprecated HTTP+SSE transport. Version negotiation is 'auto', so both the
// 2025-11-25 and the 2026-07-28 revisions are spoken.

export interface OpenClientOptions {
  policy: NetworkPolicy;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal: AbortSignal;
  /** Called when the server says its tool list changed. */
  onToolsChanged: () => void;
}

export type OpenedClient =
  | {
      ok: true;
      client: Client;
      transport: 'stdio' | 'streamable-http' | 'sse';
      /** The last lines a stdio server wrote to stderr: the likely reason when it dies. */
      stderrTail?: () => string;
    }
  /** `permanent`: the configuration or the SSRF policy refuses it, so retrying cannot help. */
  | { ok: false; problem: string; permanent?: true };

const STDERR_TAIL_CHARS = 1_000;

const CLIENT_INFO = { name: 'syndicate', version: '0.1.0' };

/** A stdio server silent this long to the 2026 `server/discover` probe is taken for a 2025 one. */
const PROBE_TIMEOUT_MS = 5_000;

function newClient(options: OpenClientOptions): Client {
  const onToolsChanged = options.onToolsChanged;
  return new Client(CLIENT_INFO, {
    versionNegotiation: { mode: 'auto', probe: { timeoutMs: Math.min(PROBE_TIMEOUT_MS, options.timeoutMs) } },
    listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: onToolsChanged } },
  });
}

function deadlineOf(options: OpenClientOptions): AbortSignal {
  return AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]);
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error && !error.message.includes(cause.message) ? `${error.message} (${cause.message})` : error.message;
}

async function attempt(transport: Transport, options: OpenClientOptions, deadline: AbortSignal): Promise<Client> {
  const client = newClient(options);
  try {
    await client.connect(transport, { timeout: options.timeoutMs, signal: deadline });
    return client;
  } catch (error) {
    // Stops a stdio child or an open stream of a half-made connection.
    await client.close().catch(() => undefined);
    await transport.close().catch(() => undefined);
    throw error;
  }
}

/** Whether a Streamable HTTP failure means "this server only speaks HTTP+SSE". */
function suggestsLegacySse(error: unknown): boolean {
  return error instanceof SdkHttpError && error.status >= 400 && error.status < 500 && error.status !== 401 && error.status !== 403;
}

async function openHttp(spec: Extract<McpServerSpec, { transport: 'http' | 'sse' }>, options: OpenClientOptions): Promise<OpenedClient> {
  const refused = urlProblem(spec.url, options.policy);
  if (refused) return { ok: false, problem: `refused to connect to ${spec.url.href}: ${refused}`, permanent: true };
  const headers = resolveHeaders(spec.headersEnv, options.env);
  if (!headers.ok) return headers;
  const fetch = createGuardedFetch(options.policy);
  // One deadline for the whole attempt, the fallback to HTTP+SSE included.
  const deadline = deadlineOf(options);
  const requestInit = { headers: headers.value };
  const sse = (): Transport => new SSEClientTransport(spec.url, { fetch, requestInit });
  try {
    if (spec.transport === 'sse') return { ok: true, client: await attempt(sse(), options, deadline), transport: 'sse' };
    try {
      return { ok: true, client: await attempt(new StreamableHTTPClientTransport(spec.url, { fetch, requestInit }), options, deadline), transport: 'streamable-http' };
    } catch (error) {
      if (!suggestsLegacySse(error)) throw error;
      return { ok: true, client: await attempt(sse(), options, deadline), transport: 'sse' };
    }
  } catch (error) {
    return { ok: false, problem: `could not connect to ${spec.url.href}: ${describeError(error)}` };
  }
}

async function openStdio(spec: Extract<McpServerSpec, { transport: 'stdio' }>, options: OpenClientOptions): Promise<OpenedClient> {
  const env = resolveStdioEnv(spec, options.env);
  if (!env.ok) return env;
  // stderr is piped, not inherited: a chatty server must not write over the CLI's trace.
  const transport = new StdioClientTransport({ command: spec.command, args: spec.args, env: { ...getDefaultEnvironment(), ...env.value }, cwd: spec.cwd, stderr: 'pipe' });
  // Read continuously: an unread pipe fills up and blocks the server.
  let tail = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
  });
  const stderrTail = (): string => tail.trim();
  try {
    return { ok: true, client: await attempt(transport, options, deadlineOf(options)), transport: 'stdio', stderrTail };
  } catch (error) {
    const said = stderrTail();
    return { ok: false, problem: `could not start '${[spec.command, ...spec.args].join(' ')}': ${describeError(error)}${said ? `; it wrote: ${said}` : ''}` };
  }
}

/** A request the server did not answer within its timeout: the sign of a hung server. */
export function isRequestTimeout(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout;
}

export function openClient(spec: McpServerSpec, options: OpenClientOptions): Promise<OpenedClient> {
  return spec.transport === 'stdio' ? openStdio(spec, options) : openHttp(spec, options);
}
