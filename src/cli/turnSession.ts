import { randomUUID } from 'node:crypto';
import { DURATION_FORMAT, parseDuration } from '../config/duration.js';
import { loadProjectConfig } from '../config/projectConfig.js';
import type { Memory } from '../memory/openMemory.js';
import type { Platform } from '../platform/createPlatform.js';
import { type CompiledSyndicate } from '../runtime/compileSyndicate.js';
import { errorMessage } from '../core/errors.js';
import type { TurnObserver } from '../core/events.js';
import type { RunTurnOptions } from '../runtime/runTurn.js';
import type { Store } from '../store/store.js';
import { StoreLocationError } from '../store/storeLocation.js';
import { createJsonPrinter, createTracePrinter, type EventPrinter } from './eventPrinter.js';
import type { TurnCommandOptions } from './options.js';
import { compileTarget } from './compileTarget.js';
import { memoryNote } from './longTermMemory.js';
import { openPlatform } from './openPlatform.js';
import { checkSessionOwner, type SessionTarget } from './sessionNotes.js';
import { createSpinner, type Spinner } from './spinner.js';
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
  /** Closes the platform: the ledger's last writes, the last spans' export, the store and the agents' MCP connections. */
  close(): Promise<void>;
}

/**
 * internal-only keeps no sessions, but its model calls cost the same: the store is opened for the
 * usage ledger alone (rows with a null session id). Failing to open it costs the ledger rows, not
 * the run; a store this build cannot use at all is a mistake to fix, not to warn about.
 */
async function openLedgerOnly(platform: Platform): Promise<boolean> {
  try {
    await platform.store();
    return true;
  } catch (error) {
    if (error instanceof StoreLocationError) throw error;
    process.stderr.write(`warning: usage will not be recorded: ${errorMessage(error)}\n`);
    return false;
  }
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

type SessionChoice = 'resume' | 'new' | undefined;

async function openSession(platform: Platform, syndicate: CompiledSyndicate, sessionId: string, choice: SessionChoice): Promise<{ store: Store | undefined; recorded: boolean; memory: Memory | undefined }> {
  if (syndicate.memorySystem === 'internal-only') return { store: undefined, recorded: await openLedgerOnly(platform), memory: undefined };
  const store = await platform.store();
  await checkSessionOwner(store, sessionId, syndicate.name, choice);
  return { store, recorded: true, memory: await platform.memory(syndicate) };
}

export async function openTurnSession(target: string, options: TurnCommandOptions, env: NodeJS.ProcessEnv): Promise<TurnSession> {
  const platform = await openPlatform(options.db, env);
  let opened;
  try {
    // Read here, not at startup: only commands that call models need it, and a broken file
    // must not stand between a person and --help, validate or sessions.
    const { providers } = loadProjectConfig();
    const limits = turnLimits(options);
    const syndicate = compileTarget(platform, target, options, providers);
    // Someone waits at the terminal: a turn ends by the deadline even when the file names none.
    limits.deadlineMs ??= syndicate.deadlineMs ?? DEFAULT_TURN_DEADLINE_MS;
    if (options.session !== undefined && options.newSession !== undefined) throw new UsageError('--session resumes a session and --new-session starts one: pass only one of them');
    const sessionId = options.session ?? options.newSession ?? randomUUID();
    const choice: SessionChoice = options.session !== undefined ? 'resume' : options.newSession !== undefined ? 'new' : undefined;
    opened = { syndicate, sessionId, limits, ...(await openSession(platform, syndicate, sessionId, choice)) };
  } catch (error) {
    await platform.close();
    throw error;
  }
  const { syndicate, sessionId, limits, store, recorded, memory } = opened;
  const recorder = recorded ? platform.recorder(syndicate.name, store ? sessionId : null) : undefined;
  const observers = recorder?.observers ?? (platform.tracing ? [platform.tracing.observer()] : []);
  const style = createStyle(!options.json && colourEnabled(process.stdout, env));
  const write = (text: string): void => void process.stdout.write(text);
  return {
    target,
    sessionId,
    storeName: platform.storeName,
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
    close: () => platform.close(),
  };
}
