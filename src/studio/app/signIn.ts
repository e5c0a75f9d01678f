import { ApiError, getJson, sendJson, useCredentials } from './api.js';

// Signing in, as the server's sign-in contract says: the console's link carries a one-time token
// in the address (#sign-in=<token>), which is posted to /auth/sign-in and removed from the address
// bar; the answer is an HttpOnly session cookie and the CSRF token every write sends. A server
// without the sign-in routes (404) accepts API keys only: the token is then used as one, kept for
// this tab alone (sessionStorage).

export interface User {
  id: string;
  name: string;
  role: string;
}

export interface SignedIn {
  user: User;
}

interface SignInAnswer {
  user: User;
  csrfToken: string;
}

const KEY_ITEM = 'syndicate.apiKey';
const HASH = /^#sign-in=(.+)$/;

/** The token in the address, removed from it at once (so it is not bookmarked, shared or kept in history). */
export function takeTokenFromAddress(): string | undefined {
  const match = HASH.exec(window.location.hash);
  if (!match) return undefined;
  history.replaceState(null, '', `${window.location.pathname}${window.location.search}`);
  return decodeURIComponent(match[1]!);
}

async function withKey(key: string): Promise<SignedIn> {
  useCredentials({ kind: 'key', key });
  try {
    await getJson('/syndicates');
  } catch (error) {
    useCredentials(undefined);
    throw error;
  }
  sessionStorage.setItem(KEY_ITEM, key);
  return { user: { id: '', name: 'API key', role: '' } };
}

/** Signs in with a one-time token or an API key. */
export async function signIn(token: string): Promise<SignedIn> {
  useCredentials(undefined);
  try {
    const answer = (await sendJson<SignInAnswer>('POST', '/auth/sign-in', { token }))!;
    useCredentials({ kind: 'cookie', csrfToken: answer.csrfToken });
    return { user: answer.user };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return withKey(token);
    if (error instanceof ApiError && error.status === 401) throw new ApiError(401, 'That sign-in link or key is not valid (a link works once). Ask the admin for a new one, or paste an API key.');
    throw error;
  }
}

/** Who is signed in already (a cookie from an earlier visit, a key kept by this tab), or undefined. */
export async function resume(): Promise<SignedIn | undefined> {
  try {
    const answer = await getJson<SignInAnswer>('/auth/me');
    useCredentials({ kind: 'cookie', csrfToken: answer.csrfToken });
    return { user: answer.user };
  } catch (error) {
    if (!(error instanceof ApiError) || (error.status !== 404 && error.status !== 401)) throw error;
    const key = sessionStorage.getItem(KEY_ITEM);
    if (error.status === 401 || key === null) return undefined;
    return withKey(key).catch(() => undefined);
  }
}

export async function signOut(): Promise<void> {
  sessionStorage.removeItem(KEY_ITEM);
  await sendJson('POST', '/auth/sign-out').catch((error: unknown) => {
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
  });
  useCredentials(undefined);
}
