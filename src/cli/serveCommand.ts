import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseDuration } from '../config/duration.js';
import type { Platform } from '../platform/createPlatform.js';
import { loadSyndicates, type WatchedSyndicateRegistry } from '../server/app/syndicateRegistry.js';
import { startServerDreams } from '../server/app/serverDreams.js';
import { startServer, type StartServerOptions } from '../server/app/startServer.js';
import { createAuth } from '../server/auth/createAuth.js';
import { memoryRoutes } from '../server/memory/memoryRoutes.js';
import { createTurnService } from '../server/turns/turnService.js';
import { serveStudio } from '../server/app/serveStudio.js';
import { loadPrices } from '../telemetry/ledger/loadPrices.js';
import { isOffline } from './compileTarget.js';
import { ExitCode } from './exitCodes.js';
import { openPlatform } from './openPlatform.js';
import { PACKAGE_ROOT } from './resolveSyndicateFile.js';
import { startSchedules } from './serveSchedules.js';
import { unattendedSummary } from './unattendedSummary.js';
import { portOf } from './serveA2aCommand.js';
import { stopped } from './stopped.js';
import { UsageError } from './usageError.js';

// `syndicate serve`: one long-running server for every syndicate given (default ./syndicates/
// and the bundled examples): the HTTP API, A2A, MCP and the studio on one port, until SIGINT or
// SIGTERM, then a graceful shutdown within --grace.

export interface ServeOptions {
  db?: string;
  host: string;
  port: string;
  offline?: boolean;
  grace: string;
}


function graceOf(value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined) throw new UsageError(`--grace must be a duration like 10s, 500ms or 1m, got '${value}'`);
  return ms;
}

/** What is served when no path is named: ./syndicates/ when it exists, and the bundled examples. */
export function defaultServePaths(cwd: string = process.cwd()): string[] {
  const local = join(cwd, 'syndicates');
  return [...(existsSync(local) ? [local] : []), join(PACKAGE_ROOT, 'examples')];
}

/** Where `npm run build` puts the bundled studio (scripts/bundle-studio.mjs). */
const STUDIO_DIR = join(PACKAGE_ROOT, 'dist', 'studio');

interface ServerParts extends Pick<StartServerOptions, 'auth' | 'turns' | 'routes' | 'studio' | 'adminConfigured'> {
  /** Once listening: the first start's one-time sign-in token for the console's link (see createAuth). */
  firstStartSignIn(): Promise<string | undefined>;
}

/** The server's parts, each given the one context they share. */
export async function serverParts(platform: Platform, syndicates: WatchedSyndicateRegistry, env: NodeJS.ProcessEnv, warn: (message: string) => void): Promise<ServerParts> {
  const store = await platform.store();
  const auth = await createAuth({ users: store.users, adminToken: env.SYNDICATE_ADMIN_TOKEN || undefined, secureCookies: (env.PUBLIC_URL ?? '').startsWith('https:') });
  const context = { platform, syndicates, authenticate: auth.authenticate, warn };
  const studio = serveStudio(STUDIO_DIR);
  if (!studio) warn(`warning: the studio is not served: ${STUDIO_DIR} has no build (run npm run build)`);
  return { auth, turns: await createTurnService(context), routes: [...memoryRoutes(context)], studio, adminConfigured: auth.adminConfigured, firstStartSignIn: () => auth.firstStartSignIn() };
}

/** `version` is the package's (A2A cards, MCP serverInfo, the OpenAPI document). */
export async function serveCommand(paths: string[], options: ServeOptions, version: string): Promise<number> {
  const env = process.env;
  const port = portOf(options.port);
  const graceMs = graceOf(options.grace);
  const platform = await openPlatform(options.db, env);
  const warn = (message: string) => void process.stderr.write(`${message}\n`);
  let syndicates: WatchedSyndicateRegistry | undefined;
  try {
    const served = paths.length > 0 ? paths.map((path) => resolve(path)) : defaultServePaths();
    try {
      syndicates = loadSyndicates(served, { platform, warn, offline: isOffline(options.offline, env) });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const parts = await serverParts(platform, syndicates, env, warn);
    const pricesFile = env.SYNDICATE_PRICES || undefined;
    const { firstStartSignIn, ...started } = parts;
    const server = await startServer({ ...started, platform, syndicates, host: options.host, port, version, prices: loadPrices(pricesFile && resolve(pricesFile)), warn, publicUrl: env.PUBLIC_URL || undefined });
    const dreams = await startServerDreams({ platform, syndicates, warn });
    const scheduler = await startSchedules(platform, syndicates, parts.turns, warn);
    const loaded = syndicates.list();
    process.stdout.write(`Syndicate server at ${server.url} (${loaded.length} syndicate${loaded.length === 1 ? '' : 's'}: ${loaded.map((entry) => entry.id).join(', ')})\n`);
    const work = await unattendedSummary((await platform.store()).schedules, loaded.flatMap((entry) => (entry.current ? [entry.current] : [])), `${server.url}/#/work`);
    process.stdout.write(`  Studio:  ${server.url}/\n  API:     ${server.url}/api/v1 (OpenAPI at /api/v1/openapi.json)\n  A2A:     ${server.url}/a2a/<id>/\n  MCP:     ${server.url}/mcp\n  Work:    ${work}\n`);
    const signInToken = await firstStartSignIn();
    if (signInToken !== undefined) {
      process.stdout.write(`Sign in: ${server.url}/#sign-in=${signInToken}\n  (the admin's one-time link, valid for 24 hours; later, \`syndicate keys create --user admin\` makes the admin a key)\n`);
    }
    await stopped(false);
    process.stderr.write(`Stopping: letting running turns finish (up to ${options.grace})...\n`);
    // A dream still running is cancelled (recorded failed): the next dream of its silo covers its sessions too.
    await dreams.stop();
    // The scheduler claims no more firings; its running turns drain with the others, and closing
    // the platform waits for their run records.
    const schedulerClosed = scheduler.close();
    const { finished, interrupted } = await server.close({ graceMs });
    await schedulerClosed;
    if (finished + interrupted > 0) process.stderr.write(`${finished} turn(s) finished, ${interrupted} interrupted.\n`);
    return ExitCode.ok;
  } finally {
    await syndicates?.close();
    await platform.close();
  }
}

