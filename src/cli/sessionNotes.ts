import type { Store } from '../store/store.js';
import type { TurnCommandOptions } from './options.js';
import type { Style } from './terminal.js';
import { UsageError } from './usageError.js';

export interface SessionTarget {
  /** The `<file|name>` argument as the user typed it. */
  target: string;
  sessionId: string;
  /** Where the session is stored, for a person. */
  storeName: string;
  options: TurnCommandOptions;
}

export const NOTHING_STORED = 'Nothing was stored (memory_system: internal-only).';

const SHELL_SAFE = /^[\w@%+=:,./-]+$/;

function shellQuote(arg: string): string {
  return SHELL_SAFE.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}

/** The command that continues this session with the same syndicate, models and store. */
function resumeCommand({ target, sessionId, options }: SessionTarget): string {
  const args = ['syndicate', 'chat', target, '--session', sessionId];
  if (options.db !== undefined) args.push('--db', options.db);
  if (options.offline) args.push('--offline');
  if (options.model !== undefined) args.push('--model', options.model);
  if (options.script !== undefined) args.push('--script', options.script);
  for (const pair of options.bind ?? []) args.push('--bind', pair);
  if (options.bindings !== undefined) args.push('--bindings', options.bindings);
  return args.map(shellQuote).join(' ');
}

export function storedNote(session: SessionTarget, style: Style): string {
  return style.dim(`Session ${session.sessionId} stored in ${session.storeName}\nResume with: ${resumeCommand(session)}`);
}

/** Resuming another syndicate's session would feed it a conversation it never had. */
export async function checkSessionOwner(store: Store, sessionId: string, syndicate: string): Promise<void> {
  const existing = await store.getSession(sessionId);
  if (existing !== undefined && existing.syndicate !== syndicate) {
    throw new UsageError(`session ${sessionId} belongs to the syndicate '${existing.syndicate}', not '${syndicate}'`);
  }
}
