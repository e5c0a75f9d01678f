import { createHash, timingSafeEqual } from 'node:crypto';
import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import { A2A_ERROR_CODE, RequestMalformedError, toRestErrorBody } from '@a2a-js/sdk/errors';
import { attachCaller, isValidUserId, USER_HEADER } from './caller.js';

// The HTTP guards in front of the protocol handlers. Each refusal says what to change.

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const JSON_TYPES: ReadonlySet<string> = new Set(['application/json', 'application/a2a+json']);
const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

function refuse(res: Response, status: number, message: string): void {
  res.status(status).json({ error: message });
}

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
export function loopbackOnly(): RequestHandler {
  return (req, res, next) => {
    const host = hostnameOf(req.headers.host ?? '');
    if (host === undefined || !LOOPBACK_HOSTS.has(host)) {
      return refuse(res, 403, `Host '${req.headers.host ?? ''}' is not a loopback name; this server only answers requests addressed to localhost or 127.0.0.1.`);
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
        return refuse(res, 403, `Origin '${origin}' is not a loopback origin; cross-site requests are refused.`);
      }
    }
    next();
  };
}

/** Bodies must be JSON (JSON-RPC, HTTP+JSON): anything else is refused before it is read. */
export function jsonOnly(): RequestHandler {
  return (req, res, next) => {
    if (!BODY_METHODS.has(req.method)) return next();
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (!JSON_TYPES.has(type)) return refuse(res, 415, `Content-Type '${type || '(none)'}' is not accepted: send application/json or application/a2a+json.`);
    next();
  };
}

function userIdOf(req: Request): string | undefined | Error {
  const raw = req.headers[USER_HEADER];
  if (raw === undefined) return undefined;
  const value = Array.isArray(raw) ? raw.join(',') : raw;
  return isValidUserId(value) ? value : new Error(`${USER_HEADER} must be 1-64 letters, digits, '.', '_' or '-'`);
}

/**
 * With a secret, every request must carry it as a bearer token; without one (a loopback bind
 * only, see serveA2a) the caller is the local machine.
 */
export function authenticate(secret: string | undefined): RequestHandler {
  return (req, res, next) => {
    const userId = userIdOf(req);
    if (userId instanceof Error) return refuse(res, 400, userId.message);
    if (secret === undefined) {
      attachCaller(req, { principal: 'local', userId });
      return next();
    }
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (!match || !secretMatches(secret, match[1]!.trim())) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="syndicate"');
      return refuse(res, 401, match ? 'The bearer token is not valid.' : 'Authentication required: send Authorization: Bearer <A2A_SERVER_SECRET>.');
    }
    attachCaller(req, { principal: 'client', userId });
    next();
  };
}

interface HttpError {
  status?: number;
  type?: string;
  message?: string;
}

/** How a protocol answers a body that is not JSON: JSON-RPC and HTTP+JSON each have their own shape. */
export type MalformedBodyReply = (res: Response) => void;

export const jsonRpcParseError: MalformedBodyReply = (res) => {
  res.status(200).json({ jsonrpc: '2.0', id: null, error: { code: A2A_ERROR_CODE.PARSE_ERROR, message: 'Invalid JSON payload.' } });
};

export const restParseError: MalformedBodyReply = (res) => {
  res.status(400).json(toRestErrorBody(new RequestMalformedError('Invalid JSON payload.'), 400));
};

/**
 * Parses JSON bodies under our cap. The SDK's own parsers (100 kB default) then skip the parsed
 * body, so the cap is ours alone; a body that is too large is refused with 413 before the protocol
 * sees it, one that is not JSON in the protocol's own error shape.
 */
export function parseJsonBody(maxBodyBytes: number, malformed: MalformedBodyReply): [RequestHandler, ErrorRequestHandler] {
  const parse = express.json({ limit: maxBodyBytes, type: [...JSON_TYPES], strict: false });
  const onError: ErrorRequestHandler = (error: HttpError, _req, res, next) => {
    if (res.headersSent) return next(error);
    if (error.type === 'entity.too.large') return refuse(res, 413, `The request body exceeds ${maxBodyBytes} bytes.`);
    if (error.type === 'entity.parse.failed') return malformed(res);
    if (typeof error.status === 'number' && error.status >= 400 && error.status < 500) return refuse(res, error.status, error.message ?? 'Bad request.');
    next(error);
  };
  return [parse, onError];
}
