import type { Response } from 'express';

// Errors as RFC 9457 problem details (application/problem+json). A problem names the field at
// fault when a request failed validation; another user's session or silo is a 404, never a 403,
// so a response never tells whether something the caller may not see exists.

export interface Problem {
  /** A URI naming the kind of problem; 'about:blank' when the status says it all. */
  type: string;
  status: number;
  title: string;
  detail?: string;
  /** Validation failures: each field at fault (a JSON pointer into the request part) and why. */
  errors?: Array<{ pointer: string; detail: string }>;
  [extension: string]: unknown;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function problem(status: number, detail?: string, extensions: Omit<Partial<Problem>, 'status'> = {}): Problem {
  return { type: 'about:blank', title: TITLES[status] ?? 'Error', status, ...(detail === undefined ? {} : { detail }), ...extensions };
}

export function sendProblem(res: Response, body: Problem): void {
  res.status(body.status).type('application/problem+json').send(JSON.stringify(body));
}
