import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import { z } from 'zod';
import { attachApiCaller, hasRole, type ApiCaller, type Role } from '../caller.js';
import { problem, sendProblem, type Problem } from './problem.js';

// One declaration per API route: its zod schemas validate the request at the edge, and the same
// schemas generate the OpenAPI document (openApi.ts), so the description cannot drift from what
// the server accepts. Handlers get parsed input and return a Reply; they throw only on a broken
// invariant (a 500 that names no internals).

/** 'public': no credentials needed (health, sign-in); otherwise the least role that may call it. */
export type Access = 'public' | Role;

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** What a handler answers: JSON, a problem, or a response it wrote itself (a stream). */
export type Reply =
  | { kind: 'json'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'problem'; problem: Problem }
  | { kind: 'written' };

export const json = (body: unknown, status = 200, headers?: Record<string, string>): Reply => ({ kind: 'json', status, body, headers });
export const fail = (status: number, detail: string, extensions?: Omit<Partial<Problem>, 'status'>): Reply => ({ kind: 'problem', problem: problem(status, detail, extensions) });
export const noContent = (): Reply => ({ kind: 'json', status: 204, body: undefined });
/** The handler wrote the response (SSE, a file). */
export const written = (): Reply => ({ kind: 'written' });

export interface ResponseSpec {
  description: string;
  /** The JSON body; absent for empty bodies and non-JSON content. */
  schema?: z.ZodType;
  /** Default application/json (with a schema); e.g. text/event-stream for streams. */
  contentType?: string;
}

export interface RouteInput<P, Q, B, A extends Access, H = undefined> {
  params: P;
  query: Q;
  body: B;
  headers: H;
  // Not distributive: a route whose access TypeScript widens to Access still gets its caller typed.
  caller: [A] extends ['public'] ? undefined : ApiCaller;
  req: Request;
  res: Response;
}

export interface RouteSpec<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType, A extends Access = Access, H extends z.ZodType = z.ZodType> {
  method: Method;
  /** Relative to /api/v1, in express syntax: '/sessions/:id'. */
  path: string;
  /** Unique, camelCase: the OpenAPI operationId. */
  operationId: string;
  summary: string;
  description?: string;
  /** The OpenAPI tag (Syndicates, Sessions, Turns, Usage, Memory, Users, Auth). */
  tag: string;
  access: A;
  params?: P;
  /** A query parameter it does not declare is refused (a misspelt filter must not be ignored). */
  query?: Q;
  /** JSON (Content-Type: application/json); anything else is a 415. */
  body?: B;
  /** The request headers the handler reads beyond credentials, by lower-case name (z.object). */
  headers?: H;
  responses: Record<number, ResponseSpec>;
  handle(input: RouteInput<z.output<P>, z.output<Q>, z.output<B>, A, z.output<H>>): Promise<Reply>;
}

/** A route of any shape, as a list holds it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteSpec<any, any, any, any, any>;

/** Infers the handler's input types from the schemas. */
export function defineRoute<P extends z.ZodType = z.ZodUndefined, Q extends z.ZodType = z.ZodUndefined, B extends z.ZodType = z.ZodUndefined, A extends Access = Access, H extends z.ZodType = z.ZodUndefined>(
  spec: RouteSpec<P, Q, B, A, H>,
): RouteSpec<P, Q, B, A, H> {
  return spec;
}

/** Decides who a request is from: an API key, the studio's cookie (with its CSRF check), or a problem (401). */
export type Authenticate = (req: Request) => Promise<ApiCaller | Problem>;

export interface MountOptions {
  authenticate: Authenticate;
  /**
   * Reads a JSON body (express.json), run once the caller is authorised for a route that takes
   * one: a stranger's megabyte is never parsed. Its failures go to the router's error handler.
   * Without it, the body must have been read before the routes.
   */
  readBody?: RequestHandler;
  /** Where a handler's unexpected failure is told (it answers a bare 500). */
  warn: (message: string) => void;
}

type Part = 'params' | 'query' | 'headers' | 'body';

type FieldError = { pointer: string; detail: string };

function pointerOf(part: Part, path: readonly PropertyKey[]): string {
  return `#/${[part, ...path.map(String)].map((segment) => segment.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
}

/** A field the request sent that the route does not take, with the ones it does. */
function unknownField(part: Part, path: readonly PropertyKey[], known: readonly string[]): FieldError {
  const takes = known.length > 0 ? `it takes ${known.join(', ')}` : 'it takes none';
  return { pointer: pointerOf(part, path), detail: `not a ${part === 'query' ? 'query parameter' : 'field'} of this request (${takes}): remove it or check its spelling` };
}

function knownKeys(schema: z.ZodType | undefined, path: readonly PropertyKey[]): string[] {
  let at: unknown = schema;
  for (const key of path) at = at instanceof z.ZodObject ? (at.shape as Record<string, unknown>)[String(key)] : undefined;
  return at instanceof z.ZodObject ? Object.keys(at.shape) : [];
}

function badRequest(errors: readonly FieldError[]): Problem {
  const first = errors[0]!;
  return problem(400, `${first.pointer.slice(2).replaceAll('/', '.')}: ${first.detail}`, { errors: [...errors] });
}

function validationProblem(part: Part, schema: z.ZodType, error: z.ZodError): Problem {
  return badRequest(
    error.issues.flatMap((issue) =>
      issue.code === 'unrecognized_keys'
        ? issue.keys.map((key) => unknownField(part, [...issue.path, key], knownKeys(schema, issue.path)))
        : [{ pointer: pointerOf(part, issue.path), detail: issue.message }],
    ),
  );
}

/** Query parameters the route does not declare; every one is refused, so a misspelt filter is not silently ignored. */
function undeclaredQuery(route: AnyRoute, query: Record<string, unknown>): Problem | undefined {
  const known = route.query instanceof z.ZodObject ? Object.keys(route.query.shape) : [];
  const unknown = Object.keys(query).filter((name) => !known.includes(name));
  return unknown.length === 0 ? undefined : badRequest(unknown.map((name) => unknownField('query', [name], known)));
}

const NOT_JSON = 'the request body must be JSON, sent with Content-Type: application/json';

// A NUL, or half of a UTF-16 surrogate pair (JSON's "\ud800" alone): no store keeps such text as
// sent (SQLite replaces the half pair, PostgreSQL refuses a NUL in text), so no route takes it.
// eslint-disable-next-line no-control-regex -- finding the NUL is the point
const UNSTORABLE_TEXT = /\u0000|\p{Cs}/u;

const UNSTORABLE_DETAIL = 'holds a NUL character or an unpaired UTF-16 surrogate, which cannot be stored as sent: send well-formed text';

/** The first string (or object key) in a request part that holds unstorable text; iterative, so 10,000 levels of nesting cost no stack. */
function unstorableText(part: Part, value: unknown): FieldError | undefined {
  type Visit = { value: unknown; key: string | undefined; parent: Visit | undefined };
  const pointer = (visit: Visit): string => {
    const path: string[] = [];
    for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) path.unshift(at.key);
    return pointerOf(part, path);
  };
  const pending: Visit[] = [{ value, key: undefined, parent: undefined }];
  while (pending.length > 0) {
    const visit = pending.pop()!;
    if (typeof visit.value === 'string') {
      if (UNSTORABLE_TEXT.test(visit.value)) return { pointer: pointer(visit), detail: UNSTORABLE_DETAIL };
    } else if (typeof visit.value === 'object' && visit.value !== null) {
      for (const [key, child] of Object.entries(visit.value)) {
        const at: Visit = { value: child, key, parent: visit };
        if (UNSTORABLE_TEXT.test(key)) return { pointer: pointer(at), detail: `its name ${UNSTORABLE_DETAIL}` };
        pending.push(at);
      }
    }
  }
  return undefined;
}

function send(res: Response, reply: Reply): void {
  if (reply.kind === 'written') return;
  if (reply.kind === 'problem') return sendProblem(res, reply.problem);
  if (reply.headers) res.set(reply.headers);
  if (reply.body === undefined) res.status(reply.status).end();
  else res.status(reply.status).json(reply.body);
}

function isCaller(value: ApiCaller | Problem): value is ApiCaller {
  return typeof value.userId === 'string' && typeof value.role === 'string';
}

async function authorised(req: Request, access: Access, authenticate: Authenticate): Promise<ApiCaller | Problem | undefined> {
  if (access === 'public') return undefined;
  const who = await authenticate(req);
  if (!isCaller(who)) return who;
  if (!hasRole(who, access)) return problem(403, `this needs the ${access} role; you are ${who.role}`);
  attachApiCaller(req, who);
  return who;
}

/** Runs a body-reading middleware to its end: the error it passed on, or undefined once the body is read. */
function readWith(readBody: RequestHandler, req: Request, res: Response): Promise<unknown> {
  return new Promise((resolve) => {
    readBody(req, res, resolve);
  });
}

/** Adds each route to `router` (mounted at /api/v1). */
export function mountRoutes(router: Router, routes: readonly AnyRoute[], options: MountOptions): void {
  for (const route of routes) {
    router[route.method](route.path, async (req: Request, res: Response, next: NextFunction) => {
      try {
        const caller = await authorised(req, route.access, options.authenticate);
        if (caller !== undefined && !isCaller(caller)) return sendProblem(res, caller);
        // express.json leaves any other body unread: validated as absent, it would be blamed on the fields.
        if (route.body !== undefined && req.is('application/json') === false) return sendProblem(res, problem(415, NOT_JSON));
        if (route.body !== undefined && options.readBody !== undefined) {
          const unread = await readWith(options.readBody, req, res);
          if (unread !== undefined) return next(unread);
        }
        const undeclared = undeclaredQuery(route, req.query);
        if (undeclared) return sendProblem(res, undeclared);
        const input: Record<Part, unknown> = { params: undefined, query: undefined, headers: undefined, body: undefined };
        for (const part of ['params', 'query', 'headers', 'body'] as const) {
          const schema = route[part];
          if (schema === undefined) continue;
          const unstorable = unstorableText(part, req[part]);
          if (unstorable) return sendProblem(res, badRequest([unstorable]));
          const parsed = schema.safeParse(req[part] ?? {});
          if (!parsed.success) return sendProblem(res, validationProblem(part, schema, parsed.error));
          input[part] = parsed.data;
        }
        // undefined exactly on public routes (authorised above), as RouteInput types it.
        send(res, await route.handle({ ...input, caller: caller as never, req, res }));
      } catch (error) {
        options.warn(`error: ${route.method.toUpperCase()} ${route.path} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        if (!res.headersSent) sendProblem(res, problem(500, 'the server failed to answer this request; the error is in its log'));
        else res.end();
      }
    });
  }
  // A path the API has, asked with a method it does not take: 405 naming the ones it does (OPTIONS
  // answers them), rather than the 404 of a path that does not exist. Mounted after every route, so
  // only a request no route took reaches these.
  const methods = new Map<string, string[]>();
  for (const route of routes) methods.set(route.path, [...(methods.get(route.path) ?? []), route.method.toUpperCase()]);
  for (const [path, taken] of methods) {
    const allow = [...taken, ...(taken.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
    router.all(path, (req: Request, res: Response) => {
      res.setHeader('Allow', allow);
      if (req.method === 'OPTIONS') return void res.status(204).end();
      sendProblem(res, problem(405, `${req.baseUrl}${req.path} does not take ${req.method}; it takes ${allow}`));
    });
  }
}
