import type { Request } from 'express';
import type { User } from '@a2a-js/sdk/server';
import { siloFor, USER_ID } from '../core/silo.js';

// Who is calling. The principal comes from authentication only (the shared bearer secret, or
// the local machine when no secret is configured on a loopback bind); the user id is the
// caller's own sub-division, checked against the silo id rules. Tasks, sessions and memory
// silos are all scoped by it, so one caller never reads another's.

/** Names an end user of an authenticated caller; optional. */
export const USER_HEADER = 'x-syndicate-user';

export type Principal = 'client' | 'local';

export interface Caller {
  principal: Principal;
  userId: string | undefined;
}

// A request without a user id uses its principal's silo, so a user named after a principal would
// share it: "local" is also the CLI's own silo on this machine.
const RESERVED_USER_IDS: ReadonlySet<string> = new Set<Principal>(['client', 'local']);

/** Why `value` cannot name a user, or undefined when it can. */
export function userIdProblem(value: string): string | undefined {
  if (!USER_ID.test(value)) return `${USER_HEADER} must be 1-64 letters, digits, '.', '_' or '-'`;
  if (RESERVED_USER_IDS.has(value)) return `${USER_HEADER} '${value}' is reserved: name the user anything else`;
  return undefined;
}

/** The scope of tasks and sessions: the principal, plus the user id when one was given. */
export function ownerOf(caller: Caller): string {
  return caller.userId === undefined ? caller.principal : `${caller.principal}:${caller.userId}`;
}

/** The memory silo of a request: the syndicate's, for the named user or else for the principal. */
export function siloOf(caller: Caller, syndicate: string): string {
  return siloFor(syndicate, caller.userId ?? caller.principal);
}

const callers = new WeakMap<Request, Caller>();

/** Called by the authentication middleware once the request is accepted. */
export function attachCaller(req: Request, caller: Caller): void {
  callers.set(req, caller);
}

export function callerOfRequest(req: Request): Caller {
  const caller = callers.get(req);
  if (!caller) throw new Error('an A2A request reached a handler without passing authentication');
  return caller;
}

/** The SDK's view of a caller; its userName scopes the SDK's own stores (push configs, event buses). */
export class CallerUser implements User {
  constructor(readonly caller: Caller) {}
  get isAuthenticated(): boolean {
    return this.caller.principal === 'client';
  }
  get userName(): string {
    return ownerOf(this.caller);
  }
}

export function callerOfUser(user: User | undefined): Caller {
  if (!(user instanceof CallerUser)) throw new Error('an A2A call carries no caller: the user builder was bypassed');
  return user.caller;
}
