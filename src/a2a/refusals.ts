import type { ErrorRequestHandler, Request, Response } from 'express';
import { A2A_CONTENT_TYPE, A2A_VERSION_HEADER } from '@a2a-js/sdk';
import { A2A_ERROR_CODE, ContentTypeNotSupportedError, RequestMalformedError, toJsonRpcError, toRestErrorBody } from '@a2a-js/sdk/errors';

// How each endpoint answers a request refused before its protocol handler sees it (by an HTTP
// guard, or because the body is not JSON): in that protocol's own error shape, so an A2A client
// shows the message instead of "HTTP error", with the HTTP status kept for proxies and logs.

/** The statuses the HTTP guards refuse with; 500 for an error nothing answered (see unanswered). */
export type RefusalStatus = 400 | 401 | 403 | 413 | 415 | 429 | 500;

interface StatusCodes {
  /** The JSON-RPC error code, also the code of a 0.3 HTTP+JSON error body. */
  rpc: number;
  /** The google.rpc.Status name of a 1.0 HTTP+JSON error body. */
  rest: string;
}

// JSON-RPC assigns no code to authentication, origin or rate refusals, and A2A takes -32001 to
// -32009 of JSON-RPC's server-error range: they get -32000, the range's generic server error, and
// tell themselves apart by the HTTP status.
const SERVER_ERROR = -32000;

const CODES: Record<RefusalStatus, StatusCodes> = {
  400: { rpc: A2A_ERROR_CODE.INVALID_REQUEST, rest: 'INVALID_ARGUMENT' },
  401: { rpc: SERVER_ERROR, rest: 'UNAUTHENTICATED' },
  403: { rpc: SERVER_ERROR, rest: 'PERMISSION_DENIED' },
  413: { rpc: A2A_ERROR_CODE.INVALID_REQUEST, rest: 'INVALID_ARGUMENT' },
  415: { rpc: A2A_ERROR_CODE.CONTENT_TYPE_NOT_SUPPORTED, rest: 'INVALID_ARGUMENT' },
  429: { rpc: SERVER_ERROR, rest: 'RESOURCE_EXHAUSTED' },
  500: { rpc: A2A_ERROR_CODE.INTERNAL_ERROR, rest: 'INTERNAL' },
};

const REFUSAL_STATUSES: ReadonlySet<number> = new Set(Object.keys(CODES).map(Number));

/** A 4xx status as one the guards answer with (an unknown one as 400). */
export function refusalStatus(status: number): RefusalStatus {
  return (REFUSAL_STATUSES.has(status) && status < 500 ? status : 400) as RefusalStatus;
}

const INVALID_JSON = 'Invalid JSON payload.';

/** A 0.3 client sends no A2A-Version header, or a 0.x one. */
export function isLegacyRequest(req: Request): boolean {
  const version = req.header(A2A_VERSION_HEADER)?.trim();
  return !version || /^0(\.|$)/.test(version);
}

/** Answers a request an HTTP guard refuses. */
export type Refuse = (req: Request, res: Response, status: RefusalStatus, message: string) => void;

/** How a protocol endpoint answers a refused request, and one whose body is not JSON. */
export interface ErrorShape {
  refuse: Refuse;
  malformed(req: Request, res: Response): void;
}

/**
 * A JSON-RPC 2.0 error response. The guards run before the body is read (nothing of a refused
 * caller is parsed), so the request id is unknown, which JSON-RPC answers with id null.
 */
export const jsonRpcErrors: ErrorShape = {
  refuse(_req, res, status, message) {
    // As the SDK answers a content type it does not take: with the A2A error's ErrorInfo.
    const error = status === 415 ? toJsonRpcError(new ContentTypeNotSupportedError(message)) : { code: CODES[status].rpc, message };
    res.status(status).json({ jsonrpc: '2.0', id: null, error });
  },
  malformed(_req, res) {
    res.status(200).json({ jsonrpc: '2.0', id: null, error: { code: A2A_ERROR_CODE.PARSE_ERROR, message: INVALID_JSON } });
  },
};

/** A google.rpc.Status body for a 1.0 client, the {code, message} body of 0.3 for a 0.3 one. */
export const restErrors: ErrorShape = {
  refuse(req, res, status, message) {
    if (isLegacyRequest(req)) return void res.status(status).json({ code: CODES[status].rpc, message });
    const body = status === 415 ? toRestErrorBody(new ContentTypeNotSupportedError(message), status) : { error: { code: status, status: CODES[status].rest, message, details: [] } };
    res.status(status).type(A2A_CONTENT_TYPE).json(body);
  },
  malformed(req, res) {
    if (isLegacyRequest(req)) return void res.status(400).json({ code: A2A_ERROR_CODE.PARSE_ERROR, message: INVALID_JSON });
    res.status(400).type(A2A_CONTENT_TYPE).json(toRestErrorBody(new RequestMalformedError(INVALID_JSON), 400));
  },
};

/** The agent card is plain JSON: so are its refusals. */
export const refusePlain: Refuse = (_req, res, status, message) => {
  res.status(status).json({ error: message });
};

/**
 * An error no handler answered (the router's malformed percent-escape in a task id, a failed
 * credentials lookup) in the endpoint's shape: a 4xx with its message, anything else a 500 whose
 * detail goes to `warn` only. Never express's own page, which shows the stack and file paths.
 */
export function unanswered(refuse: Refuse, warn: (message: string) => void): ErrorRequestHandler {
  return (error: { status?: unknown; message?: unknown; stack?: unknown }, req, res, next) => {
    if (res.headersSent) return next(error);
    const status = typeof error.status === 'number' ? error.status : 500;
    if (status >= 400 && status < 500) return refuse(req, res, refusalStatus(status), typeof error.message === 'string' ? error.message : 'Bad request.');
    warn(`error: ${req.method} ${req.originalUrl} failed: ${String(error.stack ?? error.message ?? error)}`);
    refuse(req, res, 500, 'Internal error: the server failed to answer this request; the error is in its log.');
  };
}
