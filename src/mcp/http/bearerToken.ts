import { createHash, timingSafeEqual } from 'node:crypto';

// Static bearer tokens for HTTP MCP servers. Both sides are hashed before the comparison so
// it takes the same time whatever the length or content of the presented token.

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The shortest token accepted: shorter ones are guessable. */
export const MIN_TOKEN_LENGTH = 16;

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** The token an `Authorization: Bearer <token>` header presents, if any. */
export function presentedToken(authorization: string | null): string | undefined {
  return authorization === null ? undefined : BEARER.exec(authorization)?.[1];
}

/** Whether a presented token is exactly `token`, compared in constant time. */
export function tokenMatches(presented: string | undefined, token: string): boolean {
  // Compared even when absent, so a missing header costs the same time as a wrong one.
  const equal = timingSafeEqual(digest(presented ?? ''), digest(token));
  return presented !== undefined && equal;
}
