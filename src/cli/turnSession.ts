import { randomUUID } from 'node:crypto';
import { formatIssue } from '../config/errors.js';
import type { SyndicateDefinition } from '../config/definition.js';
import { loadScriptFile } from '../models/scripted/loadScriptFile.js';
import { compileSyndicate, type CompiledSyndicate } from '../runtime/compileSyndicate.js';
import type { Store } from '../store/store.js';
import { createJsonPrinter, createTracePrinter, type EventPrinter } from './eventPrinter.js';
import type { ModelOptions, TurnCommandOptions } from './options.js';
import { bindingsOf, loadDefinition } from './loadDefinition.js';
import { checkSessionOwner, type SessionTarget } from './sessionNotes.js';
import { dbPathFor, openSessionStore } from './sessionStore.js';
import { createSpinner, type Spinner } from './spinner.js';
import { colourEnabled, createStyle, type Style } from './terminal.js';

/** Everything a turn-running command needs, ready before the first turn. */
export interface TurnSession extends SessionTarget {
  syndicate: CompiledSyndicate;
  /** Undefined for `memory_system: internal-only`: nothing is stored. */
  store: Store | undefined;
  style: Style;
  printer: EventPrinter;
  spinner: Spinner;
}

const TRUTHY: ReadonlySet<string> = new Set(['1', 'true', 'yes']);

function isOffline(flag: boolean | undefined, env: NodeJS.ProcessEnv): boolean {
  return flag === true || TRUTHY.has((env.SYNDICATE_OFFLINE ?? '').toLowerCase());
}

function compileDefinition(definition: SyndicateDefinition, options: ModelOptions, env: NodeJS.ProcessEnv): CompiledSyndicate {
  return compileSyndicate(definition, {
    offline: isOffline(options.offline, env),
    modelOverride: options.model,
    scripts: options.script === undefined ? undefined : loadScriptFile(options.script),
    env,
  });
}

export async function openTurnSession(target: string, options: TurnCommandOptions, env: NodeJS.ProcessEnv): Promise<TurnSession> {
  const definition = loadDefinition(target, bindingsOf(options));
  // On stderr, so they reach a person even when stdout is NDJSON for a program.
  for (const warning of definition.warnings) process.stderr.write(`warning: ${formatIssue(warning)}\n`);
  const syndicate = compileDefinition(definition, options, env);
  const sessionId = options.session ?? randomUUID();
  const dbPath = dbPathFor(options.db, env);
  const store = syndicate.memorySystem === 'internal-only' ? undefined : await openSessionStore(dbPath);
  if (store) {
    try {
      await checkSessionOwner(store, sessionId, syndicate.name);
    } catch (error) {
      await store.close();
      throw error;
    }
  }
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
  };
}
