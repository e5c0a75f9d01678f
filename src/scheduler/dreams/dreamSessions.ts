import { LOCAL_USER } from '../../core/silo.js';
import type { SessionRecord, Store } from '../../store/store.js';
import { TASK_SESSIONS } from '../tasks/index.js';

// Which sessions a dream reflects on: one user's conversations since the last dream. Never the
// sessions unattended work runs in (background pieces `bg:`, dreams `dream:`, scheduled tasks
// `task:`): a dream reflects on what people said, not on itself.

const UNATTENDED_SCOPES: readonly string[] = ['bg:', 'dream:', TASK_SESSIONS];
/** The namespaces faces keep sessions in (runtime/sessionScope.ts); an id in none is the local user's (the CLI). */
const FACE_SCOPES: readonly string[] = ['api:', 'a2a:', 'mcp:'];

export function isUnattendedSession(id: string): boolean {
  return UNATTENDED_SCOPES.some((scope) => id.startsWith(scope));
}

/** Whether the session is `user`'s: the server's `api:<user>:…`, or for the local user an id in no face's scope. */
export function isSessionOf(id: string, user: string): boolean {
  if (isUnattendedSession(id)) return false;
  if (id.startsWith(`api:${user}:`)) return true;
  return user === LOCAL_USER && !FACE_SCOPES.some((scope) => id.startsWith(scope));
}

// Sessions a dream reads at most: the newest first, so a long gap reflects on what is recent.
const MAX_SESSIONS = 200;

export async function sessionsToReflectOn(store: Store, syndicate: string, user: string, since: number): Promise<SessionRecord[]> {
  const sessions = await store.listSessions({ syndicate, limit: 10_000 });
  return sessions.filter((session) => session.updatedAt > since && isSessionOf(session.id, user)).slice(0, MAX_SESSIONS);
}

// What of the sessions goes into the dream's prompt, at most.
const MAX_TRANSCRIPT_CHARS = 40_000;

/** The sessions' exchanges (each turn's message and answer), oldest session first, bounded in characters. */
export async function transcriptOf(store: Store, sessions: readonly SessionRecord[]): Promise<string> {
  const parts: string[] = [];
  let length = 0;
  for (const session of [...sessions].reverse()) {
    const lines = [`## Session ${session.id} (last active ${new Date(session.updatedAt).toISOString()})`];
    for (const { event } of await store.readEvents(session.id)) {
      if (event.type === 'turn-start') lines.push(`User: ${event.input}`);
      else if (event.type === 'turn-end' && event.output) lines.push(`${event.agent}: ${event.output}`);
    }
    const text = lines.join('\n');
    if (length + text.length > MAX_TRANSCRIPT_CHARS) break;
    parts.push(text);
    length += text.length;
  }
  return parts.join('\n\n');
}
