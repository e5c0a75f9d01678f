import { createHash, timingSafeEqual } from 'node:crypto';
import express, { type ErrorRequestHandler, type Request, type RequestHandler } from 'express';
import { attachCaller, USER_HEADER, userIdProblem, type Caller } from './caller.js';
import { refusalStatus, type ErrorShape, type Refuse } from './refusals.js';

// The HTTP guards in front of the protocol handlers. Each refusal says what to change, in the
// error shape of the endpoint it guards (see refusals.ts).

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

/** The body types of each binding: JSON-RPC requires application/json, HTTP+JSON also takes A2A's own. */
export const JSONRPC_TYPES: readonly string[] = ['application/json'];
export const REST_TYPES: readonly string[] = ['application/json', 'application/a2a+json'];

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Compares digests, so neither the secret's content nor its length leaks through timing. */
export function secretMatches(secret: string, offered: string): boolean {
  return timingSafeEqual(digest(secret), digest(offered));
}

function hostnameOf(value: string): string | undefined {
  try {
    return new URL(`http://${value}`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * DNS-rebinding protection for a server bound to loopback: a browser page on another site can
 * reach 127.0.0.1, but its requests carry that site's name in Host or Origin.
 */
export function loopbackOnly(refuse: Refuse): RequestHandler {
  return (req, res, next) => {
    const host = hostnameOf(req.headers.host ?? '');
    if (host === undefined || !LOOPBACK_HOSTS.has(host)) {
      return refuse(req, res, 403, `Host '${req.headers.host ?? ''}' is not a loopback name; this server only answers requests addressed to localhost or 127.0.0.1.`);
    }
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== 'null') {
      let originHost: string | undefined;
      try {
        originHost = new URL(origin).hostname;
      } catch {
        originHost = undefined;
      }
      if (originHost === undefined || !LOOPBACK_HOSTS.has(originHost)) {
        return refuse(req, res, 403, `Origin '${origin}' is not a loopback origin; cross-site requests are refused.`);
      }
    }
    next();
  };
}

/** Bodies must be of the binding's JSON types: anything else is refused before it is read. */
export function jsonOnly(types: readonly string[], refuse: Refuse): RequestHandler {
  const accepted = new Set(types);
  const expected = types.join(' or ');
  return (req, res, next) => {
    if (!BODY_METHODS.has(req.method)) return next();
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (!accepted.has(type)) return refuse(req, res, 415, `Content-Type '${type || '(none)'}' is not accepted here: send ${expected}.`);
    next();
  };
}

function userIdOf(req: Request): string | undefined | Error {
  const raw = req.headers[USER_HEADER];
  if (raw === undefined) return undefined;
  const value = Array.isArray(raw) ? raw.join(',') : raw;
  const problem = userIdProblem(value);
  return problem === undefined ? value : new Error(problem);
}

/**
 * With a secret, every request must carry it as a bearer token; without one (a loopback bind
 * only, see serveA2a) the caller is the local machine.
 */
export function authenticate(secret: string | undefined, refuse: Refuse): RequestHandler {
  return (req, res, next) => {
    const userId = userIdOf(req);
    if (userId instanceof Error) return refuse(req, res, 400, userId.message);
    if (secret === undefined) {
      attachCaller(req, { principal: 'local', userId });
      return next();
    }
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (!match || !secretMatches(secret, match[1]!.trim())) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="syndicate"');
      return refuse(req, res, 401, match ? 'The bearer token is not valid.' : 'Authentication required: send Authorization: Bearer <A2A_SERVER_SECRET>.');
    }
    attachCaller(req, { principal: 'client', userId });
    next();
  };
}

/** The host's own authentication (the server's API keys): a caller, or why the request is refused. */
export type AuthenticateCaller = (req: Request) => Promise<Caller | { status: 401 | 403; message: string }>;

/** As authenticate, but the host that mounts the face decides who calls (it has users of its own). */
export function authenticateWith(check: AuthenticateCaller, refuse: Refuse): RequestHandler {
  return (req, res, next) => {
    check(req).then(
      (outcome) => {
        if ('status' in outcome) {
          if (outcome.status === 401) res.setHeader('WWW-Authenticate', 'Bearer realm="syndicate"');
          return refuse(req, res, outcome.status, outcome.message);
        }
        attachCaller(req, outcome);
        next();
      },
      (error: unknown) => next(error),
    );
  };
}

interface HttpError {
  status?: number;
  type?: string;
  message?: string;
}

/**
 * Parses JSON bodies of the binding's types under our cap. The SDK's own parsers (100 kB default)
 * then skip the parsed body, so the cap is ours alone; a body that is too large is refused with
 * 413 before the protocol sees it, one that is not JSON as the protocol's parse error.
 */
export function parseJsonBody(maxBodyBytes: number, types: readonly string[], errors: ErrorShape): [RequestHandler, ErrorRequestHandler] {
  const parse = express.json({ limit: maxBodyBytes, type: [...types], strict: false });
  const onError: ErrorRequestHandler = (error: HttpError, req, res, next) => {
    if (res.headersSent) return next(error);
    if (error.type === 'entity.too.large') return errors.refuse(req, res, 413, `The request body exceeds ${maxBodyBytes} bytes: send a smaller one.`);
    if (error.type === 'entity.parse.failed') return errors.malformed(req, res);
    if (typeof error.status === 'number' && error.status >= 400 && error.status < 500) return errors.refuse(req, res, refusalStatus(error.status), error.message ?? 'Bad request.');
    next(error);
  };
  return [parse, onError];
}
