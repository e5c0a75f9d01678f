import { randomUUID } from 'node:crypto';
import { DURATION_FORMAT, parseDuration } from '../config/duration.js';
import { loadProjectConfig } from '../config/projectConfig.js';
import { type CompiledSyndicate } from '../runtime/compileSyndicate.js';
import type { TurnObserver } from '../core/events.js';
import type { RunTurnOptions } from '../runtime/runTurn.js';
import type { Store } from '../store/store.js';
import { setupTracing } from '../telemetry/setupTracing.js';
import { createJsonPrinter, createTracePrinter, type EventPrinter } from './eventPrinter.js';
import type { TurnCommandOptions } from './options.js';
import { compileTarget } from './compileTarget.js';
import { memoryNote, openLongTermMemory } from './longTermMemory.js';
import { checkSessionOwner, type SessionTarget } from './sessionNotes.js';
import { dbPathFor, openSessionStore } from './sessionStore.js';
import { createSpinner, type Spinner } from './spinner.js';
import { cliUsageLedger, openLedgerOnlyStore } from './usageLedger.js';
import { colourEnabled, createStyle, type Style } from './terminal.js';
import { UsageError } from './usageError.js';

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
  /** Options for one turn of this session: its store, observers and long-term memory. */
  turnOptions(input: string, signal: AbortSignal): RunTurnOptions;
  /**
   * Ends the session for long-term memory: distils the turns since the last ingestion into facts.
   * Resolves to a line for the person (undefined when the syndicate keeps no long-term memory).
   */
  remember(signal?: AbortSignal): Promise<string | undefined>;
  /** Waits for the ledger's last writes and the last spans' export, closes the database and the agents' MCP connections. */
  close(): Promise<void>;
}

/** run and chat stop a turn after 10 minutes unless told otherwise (--deadline, or the file's `deadline`). */
export const DEFAULT_TURN_DEADLINE_MS = 10 * 60_000;

function durationFlag(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = parseDuration(value);
  if (ms === undefined) throw new UsageError(`${flag} ${value}: must be ${DURATION_FORMAT}`);
  return ms;
}

function turnLimits(options: TurnCommandOptions): Pick<RunTurnOptions, 'retry' | 'deadlineMs'> {
  const attemptTimeoutMs = durationFlag('--timeout', options.timeout);
  return { retry: attemptTimeoutMs === undefined ? undefined : { attemptTimeoutMs }, deadlineMs: durationFlag('--deadline', options.deadline) };
}

export async function openTurnSession(target: string, options: TurnCommandOptions, env: NodeJS.ProcessEnv): Promise<TurnSession> {
  // Read here, not at startup: only commands that call models need it, and a broken file
  // must not stand between a person and --help, validate or sessions.
  const { providers } = loadProjectConfig();
  const limits = turnLimits(options);
  const syndicate = compileTarget(target, options, env, providers);
  // Someone waits at the terminal: a turn ends by the deadline even when the file names none.
  limits.deadlineMs ??= syndicate.deadlineMs ?? DEFAULT_TURN_DEADLINE_MS;
  if (options.session !== undefined && options.newSession !== undefined) throw new UsageError('--session resumes a session and --new-session starts one: pass only one of them');
  const sessionId = options.session ?? options.newSession ?? randomUUID();
  const choice = options.session !== undefined ? 'resume' : options.newSession !== undefined ? 'new' : undefined;
  const dbPath = dbPathFor(options.db, env);
  // internal-only keeps no sessions, but its model calls cost the same: the database is opened for
  // the usage ledger alone (rows with a null session id).
  const internalOnly = syndicate.memorySystem === 'internal-only';
  const database = internalOnly ? await openLedgerOnlyStore(dbPath) : await openSessionStore(dbPath);
  const store = internalOnly ? undefined : database;
  if (store) {
    try {
      await checkSessionOwner(store, sessionId, syndicate.name, choice);
    } catch (error) {
      await store.close();
      await syndicate.close();
      throw error;
    }
  }
  const memory = store && (await openLongTermMemory(syndicate, store, dbPath));
  const ledger = database && cliUsageLedger(database, syndicate.name, store ? sessionId : null);
  const tracing = await setupTracing(env, { conversationId: store ? sessionId : undefined });
  const observers = [...(ledger ? [ledger.observe] : []), ...(tracing ? [tracing.observer] : [])];
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
    observers,
    turnOptions(input, signal) {
      return { input, sessionId, store, signal, observers, memory: memory?.turn, ...limits };
    },
    async remember(signal) {
      if (!memory) return undefined;
      return memoryNote(await memory.facts.ingestSession(sessionId, signal), memory.facts.silo);
    },
    async close() {
      const traced = tracing?.shutdown();
      const disconnected = syndicate.close();
      await ledger?.settled();
      await database?.close();
      await traced;
      await disconnected;
    },
  };
}
