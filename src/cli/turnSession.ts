import { randomUUID } from 'node:crypto';
import { formatIssue } from '../config/errors.js';
import type { SyndicateDefinition } from '../config/definition.js';
import { loadProjectConfig, type ProvidersConfig } from '../config/projectConfig.js';
import { loadScriptFile } from '../models/scripted/loadScriptFile.js';
import { compileSyndicate, type CompiledSyndicate } from '../runtime/compileSyndicate.js';
import type { TurnObserver } from '../runtime/runTurn.js';
import type { Store } from '../store/store.js';
import { setupTracing } from '../telemetry/setupTracing.js';
import { createJsonPrinter, createTracePrinter, type EventPrinter } from './eventPrinter.js';
import type { ModelOptions, TurnCommandOptions } from './options.js';
import { bindingsOf, loadDefinition } from './loadDefinition.js';
import { checkSessionOwner, type SessionTarget } from './sessionNotes.js';
import { dbPathFor, openSessionStore } from './sessionStore.js';
import { createSpinner, type Spinner } from './spinner.js';
import { cliUsageLedger, openLedgerOnlyStore } from './usageLedger.js';
import { colourEnabled, createStyle, type Style } from './terminal.js';

/** Everything a turn-running command needs, ready before the first turn. */
export interface TurnSession extends SessionTarget {
  syndicate: CompiledSyndicate;
  /** Undefined for `memory_system: internal-only`: nothing is stored. */
  store: Store | undefined;
  style: Style;
  printer: EventPrinter;
  spinner: Spinner;
  /** Pass to every turn: the usage ledger, and tracing when an OTLP endpoint is set. */
  observers: TurnObserver[];
  /** Waits for the ledger's last writes and the last spans' export, then closes the database. */
  close(): Promise<void>;
}

const TRUTHY: ReadonlySet<string> = new Set(['1', 'true', 'yes']);

function isOffline(flag: boolean | undefined, env: NodeJS.ProcessEnv): boolean {
  return flag === true || TRUTHY.has((env.SYNDICATE_OFFLINE ?? '').toLowerCase());
}

function compileDefinition(definition: SyndicateDefinition, options: ModelOptions, env: NodeJS.ProcessEnv, providers: ProvidersConfig): CompiledSyndicate {
  return compileSyndicate(definition, {
    offline: isOffline(options.offline, env),
    modelOverride: options.model,
    scripts: options.script === undefined ? undefined : loadScriptFile(options.script),
    env,
    providers,
  });
}

export async function openTurnSession(target: string, options: TurnCommandOptions, env: NodeJS.ProcessEnv): Promise<TurnSession> {
  // Read here, not at startup: only commands that call models need it, and a broken file
  // must not stand between a person and --help, validate or sessions.
  const { providers } = loadProjectConfig();
  const definition = loadDefinition(target, bindingsOf(options));
  // On stderr, so they reach a person even when stdout is NDJSON for a program.
  for (const warning of definition.warnings) process.stderr.write(`warning: ${formatIssue(warning)}\n`);
  const syndicate = compileDefinition(definition, options, env, providers);
  for (const warning of syndicate.warnings) process.stderr.write(`warning: ${warning}\n`);
  const sessionId = options.session ?? randomUUID();
  const dbPath = dbPathFor(options.db, env);
  // internal-only keeps no sessions, but its model calls cost the same: the database is opened for
  // the usage ledger alone (rows with a null session id).
  const internalOnly = syndicate.memorySystem === 'internal-only';
  const database = internalOnly ? await openLedgerOnlyStore(dbPath) : await openSessionStore(dbPath);
  const store = internalOnly ? undefined : database;
  if (store) {
    try {
      await checkSessionOwner(store, sessionId, syndicate.name);
    } catch (error) {
      await store.close();
      throw error;
    }
  }
  const ledger = database && cliUsageLedger(database, syndicate.name, store ? sessionId : null);
  const tracing = await setupTracing(env, { conversationId: store ? sessionId : undefined });
  const style = createStyle(!options.json && colourEnabled(process.stdout, env));
  const write = (text: string): void => void process.stdout.write(text);
  return {
    target,
    sessionId,
    dbPath,
    options,
    syndicate,
    store,
    style,
    printer: options.json ? createJsonPrinter(write) : createTracePrinter(write, style, 'live'),
    spinner: createSpinner(process.stderr),
    observers: [...(ledger ? [ledger.observe] : []), ...(tracing ? [tracing.observer] : [])],
    async close() {
      const traced = tracing?.shutdown();
      await ledger?.settled();
      await database?.close();
      await traced;
    },
  };
}
