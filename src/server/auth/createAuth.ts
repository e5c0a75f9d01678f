import type { Request } from 'express';
import type { RateLimit } from '../../a2a/rateLimit.js';
import { presentedToken, tokenMatches } from '../../mcp/http/bearerToken.js';
import type { UserRecord, UserRecords } from '../../store/users.js';
import type { ApiCaller } from '../caller.js';
import type { AuthService } from '../context.js';
import { problem, type Problem } from '../http/problem.js';
import type { Authenticate } from '../http/route.js';
import { parseApiKey, secretMatches } from './apiKey.js';
import { authRoutes } from './authRoutes.js';
import { keyRoutes } from './keyRoutes.js';
import { sessionCookieOf } from './sessionCookie.js';
import { hashToken, newToken, roleOf, type Identity } from './tokens.js';
import { userRoutes } from './userRoutes.js';

// Who a request is from: an API key (`Authorization: Bearer sk_syn_...`, or SYNDICATE_ADMIN_TOKEN
// for the admin), or the studio's session cookie, whose state-changing requests must also send
// the sign-in's CSRF token. Every face (API, A2A, MCP) authenticates here.

/** The user SYNDICATE_ADMIN_TOKEN and the first start's sign-in link sign in as. */
export const ADMIN_USER = 'admin';
/** How long the first start's sign-in link works (once). */
export const SIGN_IN_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
/** A key's last-used time is written at most this often, so a busy key does not write on every request. */
export const KEY_TOUCH_INTERVAL_MS = 60 * 1000;

const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface AuthOptions {
  users: UserRecords;
  /** SYNDICATE_ADMIN_TOKEN: the admin's API key. */
  adminToken?: string;
  /** Mark the cookie Secure: the public URL is https. */
  secureCookies: boolean;
  /** Sign-in attempts per address; SIGN_IN_LIMIT by default. */
  signInLimit?: RateLimit;
  now?: () => number;
}

export interface Auth extends AuthService {
  /** Whether an admin can sign in without the console: SYNDICATE_ADMIN_TOKEN, or an admin user in the store. */
  adminConfigured: boolean;
  /**
   * On first start (no admin user, no SYNDICATE_ADMIN_TOKEN): creates the admin user and returns a
   * one-time sign-in token for the console's link; undefined on any other start.
   */
  firstStartSignIn(): Promise<string | undefined>;
}

export const NO_CREDENTIALS = 'send Authorization: Bearer <an API key> (an admin creates one with `syndicate keys create`), or sign in to the studio';

export async function createAuth(options: AuthOptions): Promise<Auth> {
  const { users, adminToken, secureCookies } = options;
  const now = options.now ?? Date.now;
  if (adminToken !== undefined) await users.createUser({ id: ADMIN_USER, role: 'admin', createdAt: now() });
  const storedAdmin = (await users.listUsers()).some((user) => user.role === 'admin');
  const touched = new Map<string, number>();
  const csrfTokens = new WeakMap<Request, string>();

  /** An API key or SYNDICATE_ADMIN_TOKEN; records the key's use. */
  const identityOfKey = async (presented: string): Promise<Identity> => {
    if (adminToken !== undefined && tokenMatches(presented, adminToken)) return { userId: ADMIN_USER, role: 'admin' };
    const parsed = parseApiKey(presented);
    const key = parsed && (await users.findKey(parsed.id));
    if (!parsed || !key || !secretMatches(parsed.secret, key)) {
      return problem(401, 'this API key is not valid: check it was copied whole, or ask an admin for a new one (`syndicate keys create`)');
    }
    if (key.revokedAt !== null) return problem(401, `the API key '${key.name}' was revoked; ask an admin for a new one (\`syndicate keys create\`)`);
    const at = now();
    if (at - (touched.get(key.id) ?? -Infinity) >= KEY_TOUCH_INTERVAL_MS) {
      touched.set(key.id, at);
      await users.touchKey(key.id, at, KEY_TOUCH_INTERVAL_MS);
    }
    return { userId: key.userId, role: roleOf(key.role) };
  };

  const authenticate: Authenticate = async (req): Promise<ApiCaller | Problem> => {
    const authorization = req.headers.authorization;
    if (authorization !== undefined) {
      const presented = presentedToken(authorization);
      if (presented === undefined) return problem(401, `the Authorization header must be 'Bearer <an API key>'`);
      const who = await identityOfKey(presented);
      return 'status' in who ? who : { ...who, via: 'key' };
    }
    const cookie = sessionCookieOf(req);
    if (cookie === undefined) return problem(401, NO_CREDENTIALS);
    const signIn = await users.findSignIn(hashToken(cookie), now());
    if (!signIn) return problem(401, 'your studio sign-in expired or was ended: sign in again');
    if (!SAFE_METHODS.has(req.method)) {
      const sent = req.headers['x-csrf-token'];
      if (!tokenMatches(typeof sent === 'string' ? sent : undefined, signIn.csrfToken)) {
        return problem(403, 'a request that changes something with the studio\'s cookie must send the X-CSRF-Token header: the csrfToken that /auth/sign-in and /auth/me answer');
      }
    }
    csrfTokens.set(req, signIn.csrfToken);
    return { userId: signIn.userId, role: roleOf(signIn.role), via: 'cookie' };
  };

  /** A sign-in's token: an API key, SYNDICATE_ADMIN_TOKEN, or a one-time sign-in token. */
  const identityOfSignIn = async (token: string): Promise<Identity> => {
    if (parseApiKey(token) || (adminToken !== undefined && tokenMatches(token, adminToken))) return identityOfKey(token);
    const user: UserRecord | undefined = await users.consumeSignInToken(hashToken(token), now());
    if (!user) return problem(401, 'this sign-in link is not valid: a link works once and for 24 hours. Sign in with an API key, or ask an admin for one (`syndicate keys create`)');
    return { userId: user.id, role: roleOf(user.role) };
  };

  return {
    authenticate,
    adminConfigured: adminToken !== undefined || storedAdmin,
    routes: [...authRoutes({ users, identityOfSignIn, csrfTokenOf: (req) => csrfTokens.get(req), secureCookies, now, signInLimit: options.signInLimit }), ...userRoutes(users, now), ...keyRoutes(users, now)],
    async firstStartSignIn() {
      if (adminToken !== undefined || storedAdmin) return undefined;
      // Another process sharing the store may have made the admin first: only the one that did prints the link.
      if (!(await users.createUser({ id: ADMIN_USER, role: 'admin', createdAt: now() }))) return undefined;
      const token = newToken();
      await users.saveSignInToken({ hash: hashToken(token), userId: ADMIN_USER, expiresAt: now() + SIGN_IN_TOKEN_TTL_MS });
      return token;
    },
  };
}
