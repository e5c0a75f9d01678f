import type { Request } from 'express';
import { z } from 'zod';
import type { UserRecords } from '../../store/users.js';
import { ROLES } from '../caller.js';
import { createRateLimiter, type RateLimit } from '../../a2a/rateLimit.js';
import { defineRoute, fail, json, noContent, type AnyRoute } from '../http/route.js';
import { hashToken, newToken, type Identity } from './tokens.js';
import { clearSessionCookie, sessionCookieOf, setSessionCookie } from './sessionCookie.js';

// The studio's sign-in: a token (the console's one-time link, or an API key) becomes an HttpOnly
// session cookie plus a CSRF token the page sends back on every state-changing request.

/** How long a studio sign-in lasts. */
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface AuthRoutesOptions {
  users: UserRecords;
  identityOfSignIn(token: string): Promise<Identity>;
  /** The CSRF token of a request authenticated by its cookie. */
  csrfTokenOf(req: Request): string | undefined;
  secureCookies: boolean;
  now: () => number;
  /** Sign-in attempts per address (brute force); SIGN_IN_LIMIT by default. */
  signInLimit?: RateLimit;
}

/** Ten attempts at once, then one every six seconds. */
export const SIGN_IN_LIMIT: RateLimit = { perSecond: 1 / 6, burst: 10 };

const userSchema = z.object({ id: z.string(), name: z.string(), role: z.enum(ROLES) });
const signedInSchema = z.object({
  user: userSchema,
  csrfToken: z.string().nullable().describe('Send it as X-CSRF-Token on every POST, PUT, PATCH and DELETE made with the cookie; null when signed in with an API key'),
});

function userOf(userId: string, role: z.infer<typeof userSchema>['role']): z.infer<typeof userSchema> {
  return { id: userId, name: userId, role };
}

export function authRoutes(options: AuthRoutesOptions): AnyRoute[] {
  const { users, secureCookies, now } = options;
  const attempts = createRateLimiter(options.signInLimit ?? SIGN_IN_LIMIT);
  return [
    defineRoute({
      method: 'post',
      path: '/auth/sign-in',
      operationId: 'signIn',
      summary: 'Sign in to the studio with a one-time sign-in token or an API key',
      description: 'Sets the HttpOnly, SameSite=Strict syndicate_session cookie and answers the CSRF token.',
      tag: 'Auth',
      access: 'public',
      body: z.strictObject({ token: z.string().min(1).max(512).describe('The token of the console\'s sign-in link (#sign-in=<token>), or an API key') }),
      responses: { 200: { description: 'Signed in', schema: signedInSchema }, 401: { description: 'The token is not valid' }, 429: { description: 'Too many attempts from this address' } },
      handle: async ({ body, req, res }) => {
        const wait = attempts.take(req.ip ?? req.socket.remoteAddress ?? 'unknown');
        if (wait !== undefined) {
          res.setHeader('Retry-After', String(wait));
          return fail(429, `too many sign-in attempts from this address: retry after ${wait} s`);
        }
        const who = await options.identityOfSignIn(body.token);
        if ('status' in who) return { kind: 'problem', problem: who };
        const cookie = newToken();
        const csrfToken = newToken();
        await users.saveSignIn({ hash: hashToken(cookie), userId: who.userId, csrfToken, expiresAt: now() + SESSION_TTL_MS });
        setSessionCookie(res, cookie, SESSION_TTL_MS, secureCookies);
        return json({ user: userOf(who.userId, who.role), csrfToken });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/auth/me',
      operationId: 'getMe',
      summary: 'Who is signed in, and the CSRF token of the studio sign-in',
      tag: 'Auth',
      access: 'viewer',
      responses: { 200: { description: 'The caller', schema: signedInSchema }, 401: { description: 'Not signed in' } },
      handle: async ({ caller, req }) => json({ user: userOf(caller.userId, caller.role), csrfToken: options.csrfTokenOf(req) ?? null }),
    }),
    defineRoute({
      method: 'post',
      path: '/auth/sign-out',
      operationId: 'signOut',
      summary: 'End the studio sign-in and clear its cookie',
      tag: 'Auth',
      access: 'viewer',
      responses: { 204: { description: 'Signed out' } },
      handle: async ({ req, res }) => {
        const cookie = sessionCookieOf(req);
        if (cookie !== undefined) await users.deleteSignIn(hashToken(cookie));
        clearSessionCookie(res, secureCookies);
        return noContent();
      },
    }),
  ];
}
