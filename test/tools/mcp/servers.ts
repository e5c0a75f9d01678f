import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { McpServerConfig } from '../../../src/config/schema.js';
import type { NetworkPolicy } from '../../../src/tools/guards/ssrf.js';
import { mcpSettings, type McpClientSettings } from '../../../src/tools/mcp/settings.js';

// MCP peers for the client tests: the official server-everything over stdio, SSE and
// Streamable HTTP, and a small flaky server of our own (fixtures/flakyServer.mjs).

const require = createRequire(import.meta.url);
export const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
export const FLAKY = fileURLToPath(new URL('./fixtures/flakyServer.mjs', import.meta.url));

/** The servers in these tests run on loopback, which the SSRF guard refuses unless told otherwise. */
export const LOOPBACK_ALLOWED: NetworkPolicy = { allowPrivate: true, allowedHosts: new Set() };

export function testSettings(overrides: Partial<McpClientSettings> = {}): McpClientSettings {
  return mcpSettings({ policy: LOOPBACK_ALLOWED, connectTimeoutMs: 20_000, requestTimeoutMs: 20_000, ...overrides }, {});
}

export function everythingStdio(name = 'everything'): McpServerConfig {
  return { name, transport: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] };
}

export function flakyStdio(name = 'flaky'): McpServerConfig {
  return { name, transport: 'stdio', command: process.execPath, args: [FLAKY] };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  /** The MCP endpoint: /mcp for Streamable HTTP, /sse for HTTP+SSE. */
  url: string;
  stop(): Promise<void>;
}

/** server-everything takes its port from PORT and cannot be given 0, so a free loopback port is picked for it. */
export async function startEverythingHttp(mode: 'streamableHttp' | 'sse'): Promise<RunningServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [EVERYTHING, mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let said = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      if (/listening on port|running on port/i.test(said)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server-everything ${mode} exited with ${code}: ${said}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}
