import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { scopedSessionId } from '../runtime/sessionScope.js';
import { TASK_SESSIONS, taskSessionPrefix } from '../scheduler/tasks/index.js';
import { hasRole, type ApiCaller } from './caller.js';

// The server's sessions live in the namespace `api:<user>:` (see runtime/sessionScope.ts), and the
// runs of a user's scheduled tasks in `task:<user>:` (scheduler/tasks/taskSessions.ts), so a
// session id says whose it is. Another user's session is answered as missing (404), never 403.

const SERVER_SCOPE = 'api';

function scopeOf(userId: string): string {
  return `${SERVER_SCOPE}:${userId}`;
}

/**
 * A session a client names (POST /turns' sessionId, an AI SDK chat id, an AG-UI thread id, a task's
 * session): printable ASCII without spaces, so the X-Session-Id header can carry it back as it is
 * and no control character ends up in a stored id.
 */
export const clientSessionIdSchema = z
  .string()
  .regex(/^[\x21-\x7e]{1,256}$/, 'a session id is 1-256 printable ASCII characters: no spaces, control characters or other scripts');

/** A fresh session id of the user's. */
export function newSessionId(userId: string): string {
  return scopedSessionId(scopeOf(userId), randomUUID());
}

/**
 * The user's session a client names: an id the server gave out (already in the user's namespace)
 * as it is, any other string (an AI SDK chat id, an AG-UI thread id) inside the user's namespace.
 */
export function sessionIdFor(userId: string, clientId: string): string {
  return clientId.startsWith(`${scopeOf(userId)}:`) ? clientId : scopedSessionId(scopeOf(userId), clientId);
}

/** The prefix of every session id of the user's conversations (list filters). */
export function sessionPrefixOf(userId: string): string {
  return `${scopeOf(userId)}:`;
}

/** The prefixes of every session of the user's: their conversations, and their tasks' runs. */
export function ownedSessionPrefixes(userId: string): string[] {
  return [sessionPrefixOf(userId), taskSessionPrefix(userId)];
}

export function ownsSession(userId: string, sessionId: string): boolean {
  return ownedSessionPrefixes(userId).some((prefix) => sessionId.startsWith(prefix));
}

/** An id the server gave out (a conversation's, a task run's), as opposed to a client's own name for a session. */
export function isServerSessionId(id: string): boolean {
  return id.startsWith(`${SERVER_SCOPE}:`) || id.startsWith(TASK_SESSIONS);
}

/** Admins see every session; everyone else only their own. */
export function maySeeSession(caller: ApiCaller, sessionId: string): boolean {
  return hasRole(caller, 'admin') || ownsSession(caller.userId, sessionId);
}

// User ids hold no ':' (caller.ts), so the user is the segment after `api:` or `task:`. A dream's
// session (`dream:<silo>:…`) names a silo, whose slug and user cannot be told apart: it maps to no one.
const USER_SESSION = new RegExp(`^(?:${SERVER_SCOPE}:|${TASK_SESSIONS})([^:]+):`);

/**
 * The user whose session it is: a conversation's (`api:<user>:…`), or a run of a task that runs for
 * them (`task:<user>:…`); undefined for a session of no server user (a background piece's, a dream's).
 */
export function userOfSession(sessionId: string): string | undefined {
  return USER_SESSION.exec(sessionId)?.[1];
}
