import { loadProjectConfig } from '../config/projectConfig.js';
import { agentIdFor, type ServedSyndicate } from '../a2a/createA2aApp.js';
import { createMemoryAgent } from '../a2a/memoryAgent.js';
import { serveA2a } from '../a2a/serveA2a.js';
import { ExitCode } from './exitCodes.js';
import { compileTarget } from './compileTarget.js';
import type { ServeA2aOptions } from './options.js';
import { openPlatform } from './openPlatform.js';
import { UsageError } from './usageError.js';
import { rememberSession } from './longTermMemory.js';
import { stopped } from './stopped.js';
import type { Platform } from '../platform/createPlatform.js';
import { a2aServerTurns } from '../a2a/serverTurns.js';
import type { CompiledSyndicate } from '../runtime/compileSyndicate.js';

// `syndicate serve-a2a`: serves syndicates as A2A agents until SIGINT or SIGTERM.

export function portOf(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError(`--port must be a whole number from 0 to 65535, got '${value}'`);
  return port;
}

function loadServed(platform: Platform, targets: readonly string[], options: ServeA2aOptions): ServedSyndicate[] {
  const { providers } = loadProjectConfig();
  return targets.map((target) => {
    const syndicate = compileTarget(platform, target, options, providers);
    return { id: agentIdFor(syndicate.name), syndicate };
  });
}

/** The syndicate --memory names: it must keep long-term memory, or there is nothing to serve. */
function loadMemorySyndicate(platform: Platform, target: string, options: ServeA2aOptions): CompiledSyndicate {
  const syndicate = compileTarget(platform, target, options, loadProjectConfig().providers);
  if (!syndicate.extractionModel) {
    throw new UsageError(`--memory ${target}: ${syndicate.name} keeps no long-term memory; set memory_system: long-term in its syndicate file, or name one that does`);
  }
  return syndicate;
}

/** `version` is the package's, announced in the agent cards. */
export async function serveA2aCommand(targets: string[], options: ServeA2aOptions, version: string): Promise<number> {
  const env = process.env;
  const port = portOf(options.port);
  if (targets.length === 0 && options.memory === undefined) throw new UsageError('name at least one syndicate to serve, or a long-term syndicate with --memory <syndicate>');
  const platform = await openPlatform(options.db, env);
  try {
    const agents = loadServed(platform, targets, options);
    const memorySyndicate = options.memory === undefined ? undefined : loadMemorySyndicate(platform, options.memory, options);
    const store = await platform.store();
    const moreAgents = memorySyndicate ? [createMemoryAgent({ syndicate: memorySyndicate, memoryFor: (silo) => platform.memory(memorySyndicate, silo) })] : [];
    const server = await serveA2a({
      agents,
      store,
      host: options.host,
      port,
      env,
      webhookPolicy: platform.network,
      version,
      moreAgents,
      // Server mode distils after each completed task, so facts are there for the caller's next one.
      ...a2aServerTurns(platform, rememberSession),
    });
    if (server.interruptedTasks > 0) process.stderr.write(`${server.interruptedTasks} task(s) left running by a server that has stopped were marked failed.\n`);
    process.stdout.write(`Serving A2A at ${server.url}${env.A2A_SERVER_SECRET ? ' (bearer token required)' : ''}\n`);
    for (const agent of server.agents) process.stdout.write(`  ${agent.name}: ${agent.cardUrl}\n`);
    for (const agent of server.moreAgents) process.stdout.write(`  ${memorySyndicate?.name} memory: ${agent.cardUrl}\n`);
    if (server.agents.length === 1) process.stdout.write(`  (also at ${server.url}/.well-known/agent-card.json)\n`);
    await stopped(false);
    await server.close();
    return ExitCode.ok;
  } finally {
    await platform.close();
  }
}
