import { loadProjectConfig } from '../config/projectConfig.js';
import type { ServedSyndicate } from '../mcp/askTool.js';
import { checkHttpExposure, serveMcpHttp } from '../mcp/http/serveHttp.js';
import { parseListenAddress, type ListenAddress } from '../mcp/http/listenAddress.js';
import { syndicateServerFactory } from '../mcp/syndicateServer.js';
import type { Memory } from '../memory/openMemory.js';
import { sharedMemoryTools } from '../memory/sharedMemoryTools.js';
import type { Platform } from '../platform/createPlatform.js';
import type { CompiledSyndicate } from '../runtime/compileSyndicate.js';
import type { Store } from '../store/store.js';
import { rememberSession } from './longTermMemory.js';
import { stopped } from './stopped.js';
import { compileTarget } from './compileTarget.js';
import { ExitCode } from './exitCodes.js';
import type { McpCommandOptions } from './options.js';
import { openPlatform } from './openPlatform.js';
import { UsageError } from './usageError.js';

// `syndicate mcp`: serves syndicates as MCP tools, over stdio (stdout is the protocol channel,
// so everything for a person goes to stderr) or Streamable HTTP with --http.

const MCP_TOKEN_VARIABLE = 'SYNDICATE_MCP_TOKEN';

/**
 * The usage ledger (and tracing) for each call. A recorder is bound to one session, so each call
 * gets its own. A promise per call, tracked by the platform, resolves once its rows are written:
 * the store must outlive every call, including those a disconnecting client leaves cancelled.
 */
function recorded(platform: Platform, syndicate: CompiledSyndicate, store: Store, memory: Memory | undefined): ServedSyndicate {
  return {
    syndicate,
    store: syndicate.memorySystem === 'internal-only' ? undefined : store,
    memory: memory?.turn,
    afterTurn: memory ? (sessionId) => platform.track(rememberSession(memory, sessionId)) : undefined,
    recordingFor(sessionId) {
      const recorder = platform.recorder(syndicate.name, sessionId);
      let finished!: () => void;
      platform.track(new Promise<void>((resolve) => (finished = resolve)));
      return { observers: recorder.observers, settled: () => recorder.settled().finally(finished) };
    },
  };
}

export async function mcpCommand(targets: string[], options: McpCommandOptions, version: string): Promise<number> {
  const env = process.env;
  const token = env[MCP_TOKEN_VARIABLE] || undefined;
  let address: ListenAddress | undefined;
  if (options.http !== undefined) {
    try {
      address = parseListenAddress(options.http);
      checkHttpExposure(address.host, token, MCP_TOKEN_VARIABLE);
    } catch (error) {
      throw new UsageError(`--http ${(error as Error).message}`);
    }
  }
  const platform = await openPlatform(options.db, env);
  try {
    const { providers } = loadProjectConfig();
    const syndicates = targets.map((target) => compileTarget(platform, target, options, providers));
    const store = await platform.store();
    const memories = new Map<CompiledSyndicate, Memory | undefined>();
    for (const syndicate of syndicates) memories.set(syndicate, await platform.memory(syndicate));
    const factory = syndicateServerFactory({
      version,
      caller: address === undefined ? 'stdio' : 'http',
      syndicates: syndicates.map((syndicate) => recorded(platform, syndicate, store, memories.get(syndicate))),
      // The "shared memory node": other agents and editors read and write the memory this syndicate's agents use.
      toolsFor: (syndicate) => {
        const memory = memories.get(syndicate);
        return memory ? sharedMemoryTools(memory) : [];
      },
    });
    if (address === undefined) {
      const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
      const handle = serveStdio(factory, { onerror: (error) => void process.stderr.write(`warning: MCP stdio: ${error.message}\n`) });
      await stopped(true);
      await handle.close();
    } else {
      const server = await serveMcpHttp(factory, { ...address, token, allowedOrigins: options.allowOrigin });
      const names = syndicates.map((syndicate) => syndicate.name).join(', ');
      process.stdout.write(`Serving ${names} over MCP at ${server.url}${token ? ' (bearer token required)' : ''}\nPress Ctrl-C to stop.\n`);
      await stopped(false);
      await server.close();
    }
    return ExitCode.ok;
  } finally {
    // Also closes the agents' own MCP client connections (mcp_server_url, mcp_servers).
    await platform.close();
  }
}
