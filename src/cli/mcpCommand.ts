import { loadProjectConfig } from '../config/projectConfig.js';
import { siloOf } from '../a2a/caller.js';
import { LOCAL_CALLER } from '../mcp/callerAuth.js';
import { checkHttpExposure, serveMcpHttp } from '../mcp/http/serveHttp.js';
import { parseListenAddress, type ListenAddress } from '../mcp/http/listenAddress.js';
import { parseUserTokens, type UserTokens } from '../mcp/http/userTokens.js';
import { syndicateServerFactory, syndicateServerTools, type SyndicateServerOptions } from '../mcp/syndicateServer.js';
import { sharedMemoryTools } from '../memory/sharedMemoryTools.js';
import { recordedSyndicate } from '../mcp/recordedSyndicate.js';
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
const MCP_USER_TOKENS_VARIABLE = 'SYNDICATE_MCP_USER_TOKENS';

export async function mcpCommand(targets: string[], options: McpCommandOptions, version: string): Promise<number> {
  const env = process.env;
  const token = env[MCP_TOKEN_VARIABLE] || undefined;
  let address: ListenAddress | undefined;
  let userTokens: UserTokens = new Map();
  if (options.http !== undefined) {
    try {
      address = parseListenAddress(options.http);
      userTokens = parseUserTokens(env[MCP_USER_TOKENS_VARIABLE] ?? '', MCP_USER_TOKENS_VARIABLE);
      const owner = token === undefined ? undefined : userTokens.get(token);
      if (owner !== undefined) throw new Error(`${MCP_TOKEN_VARIABLE} is also ${owner}'s token in ${MCP_USER_TOKENS_VARIABLE}: give the shared token a value of its own`);
      checkHttpExposure(address.host, { token, tokenVariable: MCP_TOKEN_VARIABLE, userTokens: userTokens.size, userTokensVariable: MCP_USER_TOKENS_VARIABLE });
    } catch (error) {
      throw new UsageError(`--http ${(error as Error).message}`);
    }
  }
  const platform = await openPlatform(options.db, env);
  try {
    const { providers } = loadProjectConfig();
    const syndicates = targets.map((target) => compileTarget(platform, target, options, providers));
    const store = await platform.store();
    const served: SyndicateServerOptions = {
      version,
      caller: address === undefined ? 'stdio' : 'http',
      syndicates: syndicates.map((syndicate) => recordedSyndicate(platform, syndicate, store, rememberSession)),
      // The "shared memory node": other agents and editors read and write the memory this
      // syndicate's agents use, in the silo of the caller (the local user over stdio).
      toolsFor: async (syndicate, caller) => {
        const memory = await platform.memory(syndicate, siloOf(caller, syndicate.name));
        return memory ? sharedMemoryTools(memory) : [];
      },
    };
    // Tool names clash whoever calls: refused now rather than at the first request.
    await syndicateServerTools(served, LOCAL_CALLER);
    const factory = syndicateServerFactory(served);
    if (address === undefined) {
      const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
      const handle = serveStdio(factory, { onerror: (error) => void process.stderr.write(`warning: MCP stdio: ${error.message}\n`) });
      await stopped(true);
      await handle.close();
    } else {
      const server = await serveMcpHttp(factory, { ...address, token, userTokens, allowedOrigins: options.allowOrigin });
      const names = syndicates.map((syndicate) => syndicate.name).join(', ');
      const guarded = token !== undefined || userTokens.size > 0;
      process.stdout.write(`Serving ${names} over MCP at ${server.url}${guarded ? ' (bearer token required)' : ''}\nPress Ctrl-C to stop.\n`);
      await stopped(false);
      await server.close();
    }
    return ExitCode.ok;
  } finally {
    // Also closes the agents' own MCP client connections (mcp_server_url, mcp_servers).
    await platform.close();
  }
}
