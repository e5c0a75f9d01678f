import { createHash, randomBytes } from 'node:crypto';
import { ROLES, type Role } from '../caller.js';
import type { Problem } from '../http/problem.js';

// Opaque tokens of the studio sign-in (cookies, CSRF tokens, one-time sign-in tokens), and what a
// credential resolves to.

/** What a credential resolved to: its user and role, or why it was refused. */
export type Identity = { userId: string; role: Role } | Problem;

/** 256 random bits: cannot be guessed, so a fast hash is enough (see apiKey.ts). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Sign-in cookies and one-time tokens are stored only as this hash. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** A stored role as the auth layer knows it; anything else is a corrupt record. */
export function roleOf(text: string): Role {
  const role = ROLES.find((known) => known === text);
  if (role === undefined) throw new Error(`a stored user has the unknown role '${text}'`);
  return role;
}
