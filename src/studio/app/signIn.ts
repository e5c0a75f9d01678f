import { ApiError, getJson, sendJson, useCsrfToken } from './api.js';

// Signing in, as the server's sign-in contract says: the console's link carries a one-time token
// in the address (#sign-in=<token>), which is posted to /auth/sign-in and removed from the address
// bar at once; an API key pasted into the form signs in the same way. The answer is an HttpOnly
// session cookie and the CSRF token every write sends.

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

const HASH = /^#sign-in=(.+)$/;

/** The token in the address, removed from it (so it is not bookmarked, shared or kept in history). */
export function takeTokenFromAddress(): string | undefined {
  const match = HASH.exec(window.location.hash);
  if (!match) return undefined;
  history.replaceState(null, '', `${window.location.pathname}${window.location.search}`);
  return decodeURIComponent(match[1]!);
}

/** Signs in with a one-time token or an API key. */
export async function signIn(token: string): Promise<SignedIn> {
  try {
    const answer = (await sendJson<SignInAnswer>('POST', '/auth/sign-in', { token }))!;
    useCsrfToken(answer.csrfToken);
    return { user: answer.user };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw new ApiError(401, 'That sign-in link or key is not valid (a link works once). Ask the admin for a new one, or paste an API key.');
    throw error;
  }
}

/** Who is signed in already (the cookie of an earlier visit), or undefined. */
export async function resume(): Promise<SignedIn | undefined> {
  try {
    const answer = await getJson<SignInAnswer>('/auth/me');
    useCsrfToken(answer.csrfToken);
    return { user: answer.user };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return undefined;
    throw error;
  }
}

export async function signOut(): Promise<void> {
  await sendJson('POST', '/auth/sign-out');
  useCsrfToken(undefined);
}
