// A silo holds one syndicate's memory for one user. Every memory read and write names exactly
// one; a call without one is refused rather than defaulted, so no code path can read across users.

const SILO_ID = /^[A-Za-z0-9._-]{1,129}$/;
/** A user id, as silos, sessions and the server's users have them. */
export const USER_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The user whose memory a process uses when nobody is authenticated (the CLI on a laptop). */
export const LOCAL_USER = 'local';

export function siloFor(syndicate: string, user: string = LOCAL_USER): string {
  if (!USER_ID.test(user)) {
    throw new Error(`invalid user id '${user}': use 1-64 letters, digits, '.', '_' or '-'`);
  }
  const slug = syndicate.trim().toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64);
  return `${slug || 'syndicate'}--${user}`;
}

/** Throws unless `silo` is a well-formed silo id; memory stores call it on every entry point. */
export function assertSilo(silo: unknown): asserts silo is string {
  if (typeof silo !== 'string' || !SILO_ID.test(silo)) {
    throw new Error(`memory access refused: a valid silo id is required (got ${JSON.stringify(silo)})`);
  }
}
