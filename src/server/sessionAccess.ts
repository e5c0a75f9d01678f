import { randomUUID } from 'node:crypto';
import { scopedSessionId } from '../runtime/sessionScope.js';
import { hasRole, type ApiCaller } from './caller.js';

// The server's sessions live in the namespace `api:<user>:` (see runtime/sessionScope.ts), so a
// session id says whose it is. Another user's session is answered as missing (404), never 403.

function scopeOf(userId: string): string {
  return `api:${userId}`;
}

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

/** The prefix of every session id of the user's (list filters). */
export function sessionPrefixOf(userId: string): string {
  return `${scopeOf(userId)}:`;
}

/** Admins see every session; everyone else only their own. */
export function maySeeSession(caller: ApiCaller, sessionId: string): boolean {
  return hasRole(caller, 'admin') || sessionId.startsWith(sessionPrefixOf(caller.userId));
}

// User ids hold no ':' (caller.ts), so the user is the segment after `api:`.
const USER_SESSION = /^api:([^:]+):/;

/** The user whose session it is (`api:<user>:…`); undefined for a session of no server user (a background piece's, a dream's). */
export function userOfSession(sessionId: string): string | undefined {
  return USER_SESSION.exec(sessionId)?.[1];
}
