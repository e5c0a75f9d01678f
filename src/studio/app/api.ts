import type { TurnEvent } from '../../core/events.js';

// The studio's one way to the server: same-origin fetches under /api/v1, the sign-in's CSRF
// token on every write (the HttpOnly session cookie rides along by itself), RFC 9457 problems
// turned into errors that say what the server said.

export const API = '/api/v1';

let csrfToken: string | undefined;

/** The sign-in's CSRF token, sent on every write; undefined once signed out. */
export function useCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function headersFor(method: string, body: unknown, extra: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = { ...extra };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (csrfToken !== undefined && method !== 'GET') headers['x-csrf-token'] = csrfToken;
  return headers;
}

async function problemOf(response: Response): Promise<ApiError> {
  const text = await response.text();
  try {
    const problem = JSON.parse(text) as { title?: string; detail?: string };
    return new ApiError(response.status, problem.detail ?? problem.title ?? `${response.status}`);
  } catch {
    return new ApiError(response.status, `the server answered ${response.status} ${response.statusText}`);
  }
}

export async function request(method: string, path: string, body?: unknown, extra: { headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<Response> {
  const response = await fetch(`${API}${path}`, {
    method,
    headers: headersFor(method, body, extra.headers ?? {}),
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
    signal: extra.signal,
  });
  if (!response.ok) throw await problemOf(response);
  return response;
}

export async function getJson<T>(path: string): Promise<T> {
  return (await request('GET', path)).json() as Promise<T>;
}

export async function sendJson<T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T | undefined> {
  const response = await request(method, path, body);
  return response.status === 204 ? undefined : (response.json() as Promise<T>);
}

export type StreamedEvent = TurnEvent & { seq?: number };

export function encodeId(id: string): string {
  return encodeURIComponent(id);
}
