import type { Request, Response } from 'express';

// The studio's sign-in cookie. HttpOnly so page scripts cannot read it, SameSite=Strict so another
// site's page cannot send it; state-changing requests also need the CSRF token (createAuth.ts).

export const SESSION_COOKIE = 'syndicate_session';

/** The cookie's value on the request, if it sent one; a value that is not percent-encoding (`%`, `%ff`) is no cookie this server set. */
export function sessionCookieOf(req: Request): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name !== SESSION_COOKIE) continue;
    try {
      return decodeURIComponent(value.join('='));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export function setSessionCookie(res: Response, value: string, maxAgeMs: number, secure: boolean): void {
  res.cookie(SESSION_COOKIE, value, { httpOnly: true, sameSite: 'strict', path: '/', secure, maxAge: maxAgeMs });
}

export function clearSessionCookie(res: Response, secure: boolean): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'strict', path: '/', secure });
}
