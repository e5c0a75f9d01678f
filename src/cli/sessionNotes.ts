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

// Switches that let a syndicate reach what it reached in this run (the librarian's loopback MCP
// server): without them the pasted command would be refused by the SSRF guard.
const REACH_VARIABLES = ['ALLOW_PRIVATE_MCP', 'SYNDICATE_ALLOWED_HOSTS'] as const;

/** The command that continues this session with the same syndicate, models and store: `chat`, or with `answer`, one `run` that answers the question it waits on. */
function resumeCommand({ target, sessionId, options }: SessionTarget, env: NodeJS.ProcessEnv, answer: boolean): string {
  const prefix = REACH_VARIABLES.flatMap((name) => (env[name] ? [`${name}=${shellQuote(env[name])}`] : []));
  const args = ['syndicate', answer ? 'run' : 'chat', target, '--session', sessionId];
  if (options.db !== undefined) args.push('--db', options.db);
  if (options.offline) args.push('--offline');
  if (options.model !== undefined) args.push('--model', options.model);
  if (options.script !== undefined) args.push('--script', options.script);
  for (const pair of options.bind ?? []) args.push('--bind', pair);
  if (options.bindings !== undefined) args.push('--bindings', options.bindings);
  return [...prefix, ...args.map(shellQuote), ...(answer ? ['"<your answer>"'] : [])].join(' ');
}

/** Where the session is, and the command that goes on with it; `waiting` when the turn ended on a question (exit 3). */
export function storedNote(session: SessionTarget, style: Style, waiting = false, env: NodeJS.ProcessEnv = process.env): string {
  const next = waiting ? `Answer with: ${resumeCommand(session, env, true)}\nor go on in a chat: ${resumeCommand(session, env, false)}` : `Resume with: ${resumeCommand(session, env, false)}`;
  return style.dim(`Session ${session.sessionId} stored in ${session.storeName}\n${next}`);
}

const RECENT_SESSIONS = 5;

/** How the session id was chosen: `--session` resumes one that exists, `--new-session` starts one. */
export type SessionChoice = 'resume' | 'new';

/**
 * `--session` names a stored session of this syndicate (a typo must not silently start a new,
 * empty conversation); `--new-session` one that does not exist yet. Resuming another syndicate's
 * session would feed it a conversation it never had.
 */
export async function checkSessionOwner(store: Store, sessionId: string, syndicate: string, choice?: SessionChoice): Promise<void> {
  const existing = await store.getSession(sessionId);
  if (existing !== undefined && existing.syndicate !== syndicate) {
    throw new UsageError(`session ${sessionId} belongs to the syndicate '${existing.syndicate}', not '${syndicate}'`);
  }
  if (existing !== undefined && choice === 'new') {
    throw new UsageError(`session ${sessionId} already exists — resume it with --session ${shellQuote(sessionId)}, or choose another id`);
  }
  if (existing === undefined && choice === 'resume') {
    const recent = await store.listSessions({ syndicate, limit: RECENT_SESSIONS });
    const known = recent.length > 0 ? `Recent sessions of '${syndicate}': ${recent.map((session) => session.id).join(', ')}.` : `'${syndicate}' has no stored sessions yet.`;
    throw new UsageError(`no session ${sessionId} to resume. ${known} To start a new session with this id, use --new-session ${shellQuote(sessionId)}`);
  }
}
