import type { Request } from 'express';

// Who calls the server: an authenticated user and their role. Every face mounted on the server
// (the API, A2A, MCP, the studio) authenticates through src/server/auth and sees the same
// caller, so one user's sessions and memory silo are the same on each.

/** Ascending: each role may do everything the roles before it may. */
export const ROLES = ['viewer', 'member', 'admin'] as const;

/** admin: everything; member: own sessions and memory, every syndicate; viewer: read only. */
export type Role = (typeof ROLES)[number];

export interface ApiCaller {
  /** A user id as silos take it (1-64 letters, digits, '.', '_' or '-'; never 'client' or 'local'). */
  userId: string;
  role: Role;
  /** How the request proved who it is: an API key (Bearer), or the studio's session cookie. */
  via: 'key' | 'cookie';
}

export function hasRole(caller: ApiCaller, needed: Role): boolean {
  return ROLES.indexOf(caller.role) >= ROLES.indexOf(needed);
}

const callers = new WeakMap<Request, ApiCaller>();

/** Called by the authentication step once the request is accepted. */
export function attachApiCaller(req: Request, caller: ApiCaller): void {
  callers.set(req, caller);
}

/** The caller of an authenticated request; undefined on a public route. */
export function apiCallerOf(req: Request): ApiCaller | undefined {
  return callers.get(req);
}
