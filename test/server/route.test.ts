import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openApiDocument } from '../../src/server/http/openApi.js';
import { defineRoute, fail, json, mountRoutes, noContent, type AnyRoute } from '../../src/server/http/route.js';
import { tokenAuth } from './serverFixture.js';

// The shared HTTP layer: zod-declared routes validated at the edge, role checks, failures that
// name no internals, and the OpenAPI 3.1 document generated from the same declarations.

const warnings: string[] = [];
/** The ids the create handler was reached with: a refused request must not get there. */
const made: string[] = [];

const routes: AnyRoute[] = [
  defineRoute({
    method: 'post',
    path: '/things/:id',
    operationId: 'createThing',
    summary: 'Makes a thing',
    tag: 'Things',
    access: 'member',
    params: z.object({ id: z.string().regex(/^[a-z]+$/) }),
    query: z.object({ dryRun: z.enum(['true', 'false']).optional().describe('Only check') }),
    body: z.strictObject({ name: z.string(), tags: z.array(z.string().min(1)).max(3) }),
    headers: z.object({ 'x-request-priority': z.coerce.number().int().min(1).max(5).optional().describe('How urgent') }),
    responses: { 201: { description: 'Made', schema: z.object({ id: z.string(), name: z.string() }) } },
    handle: async ({ params, body, headers }) => {
      made.push(params.id);
      return json({ id: params.id, name: body.name, priority: headers['x-request-priority'] ?? null }, 201);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/things/:id',
    operationId: 'getThing',
    summary: 'A thing',
    tag: 'Things',
    access: 'viewer',
    params: z.object({ id: z.string() }),
    responses: { 200: { description: 'The thing' }, 404: { description: 'None' } },
    handle: async ({ params }) => (params.id === 'boom' ? Promise.reject(new Error('secret table users_v2 is corrupt')) : fail(404, `no thing '${params.id}'`)),
  }),
  defineRoute({
    method: 'delete',
    path: '/things/:id',
    operationId: 'deleteThing',
    summary: 'Removes a thing',
    tag: 'Things',
    access: 'admin',
    params: z.object({ id: z.string() }),
    responses: { 204: { description: 'Gone' } },
    handle: async () => noContent(),
  }),
  defineRoute({
    method: 'get',
    path: '/ping',
    operationId: 'ping',
    summary: 'Public',
    tag: 'Meta',
    access: 'public',
    responses: { 200: { description: 'pong', schema: z.object({ pong: z.literal(true) }) } },
    handle: async ({ caller }) => json({ pong: caller === undefined }),
  }),
];

let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  const router = express.Router();
  router.use(express.json());
  mountRoutes(router, routes, { authenticate: tokenAuth().authenticate, warn: (message) => void warnings.push(message) });
  app.use(router);
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function call(path: string, init: RequestInit & { key?: string } = {}): Promise<Response> {
  const { key = 'alice-key', headers, ...rest } = init;
  return fetch(`${base}${path}`, { ...rest, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(headers as Record<string, string> | undefined) } });
}

async function pointers(response: Response): Promise<string[]> {
  return ((await response.json()) as { errors: Array<{ pointer: string }> }).errors.map((error) => error.pointer);
}

describe('mountRoutes', () => {
  it('passes parsed input to the handler', async () => {
    const response = await call('/things/abc', { method: 'POST', body: JSON.stringify({ name: 'n', tags: [] }) });
    expect(response.status).toBe(201);
    expect(await response.json()).toStrictEqual({ id: 'abc', name: 'n', priority: null });
  });

  it('passes the headers the route declares, parsed', async () => {
    const response = await call('/things/abc', { method: 'POST', headers: { 'x-request-priority': '2' }, body: JSON.stringify({ name: 'n', tags: [] }) });
    expect(await response.json()).toMatchObject({ priority: 2 });
  });

  it('names a header at fault, and does not run the handler', async () => {
    const response = await call('/things/badheader', { method: 'POST', headers: { 'x-request-priority': 'urgent' }, body: JSON.stringify({ name: 'n', tags: [] }) });
    expect(response.status).toBe(400);
    expect(await pointers(response)).toStrictEqual(['#/headers/x-request-priority']);
    expect(made).not.toContain('badheader');
  });

  it('answers a body that is not JSON with a 415 saying to send JSON, and does not run the handler', async () => {
    const response = await call('/things/form', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=n' });
    expect(response.status).toBe(415);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(((await response.json()) as { detail: string }).detail).toContain('Content-Type: application/json');
    expect(made).not.toContain('form');
  });

  it('names a body field the route does not take, with the ones it does, and does not run the handler', async () => {
    const response = await call('/things/typo', { method: 'POST', body: JSON.stringify({ name: 'n', tags: [], tagz: ['x'] }) });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { detail: string; errors: Array<{ pointer: string }> };
    expect(body.errors.map((error) => error.pointer)).toStrictEqual(['#/body/tagz']);
    expect(body.detail).toBe('body.tagz: not a field of this request (it takes name, tags): remove it or check its spelling');
    expect(made).not.toContain('typo');
  });

  it('names a query parameter the route does not declare, so a misspelt one is not ignored', async () => {
    const response = await call('/things/abc?dryrun=true', { method: 'POST', body: JSON.stringify({ name: 'n', tags: [] }) });
    const none = await call('/things/abc?verbose=1');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { detail: string }).detail).toBe('query.dryrun: not a query parameter of this request (it takes dryRun): remove it or check its spelling');
    expect(await pointers(none)).toStrictEqual(['#/query/verbose']);
  });

  it('names the body field at fault with a JSON pointer', async () => {
    const response = await call('/things/abc', { method: 'POST', body: JSON.stringify({ name: 'n', tags: ['ok', ''] }) });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    const body = (await response.json()) as { detail: string; errors: Array<{ pointer: string }> };
    expect(body.errors.map((error) => error.pointer)).toStrictEqual(['#/body/tags/1']);
    expect(body.detail).toMatch(/^body\.tags\.1: /);
  });

  it('names a path parameter at fault', async () => {
    const response = await call('/things/ABC', { method: 'POST', body: JSON.stringify({ name: 'n', tags: [] }) });
    expect(((await response.json()) as { errors: Array<{ pointer: string }> }).errors[0]!.pointer).toBe('#/params/id');
  });

  it('names a query parameter at fault', async () => {
    const response = await call('/things/abc?dryRun=maybe', { method: 'POST', body: JSON.stringify({ name: 'n', tags: [] }) });
    expect(((await response.json()) as { errors: Array<{ pointer: string }> }).errors[0]!.pointer).toBe('#/query/dryRun');
  });

  it('refuses a caller below the route’s role with a 403 problem naming both roles', async () => {
    const response = await call('/things/abc', { method: 'DELETE' });
    expect(response.status).toBe(403);
    const { detail } = (await response.json()) as { detail: string };
    expect(detail).toContain('admin');
    expect(detail).toContain('member');
  });

  it('refuses a viewer a member route before reading its body', async () => {
    const response = await call('/things/abc', { method: 'POST', key: 'vera-key', body: '{}' });
    expect(response.status).toBe(403);
  });

  it('answers the authenticator’s problem to a request without credentials', async () => {
    const response = await fetch(`${base}/things/abc`);
    expect(response.status).toBe(401);
  });

  it('lets anyone call a public route, with no caller', async () => {
    expect(await (await fetch(`${base}/ping`)).json()).toStrictEqual({ pong: true });
  });

  it('answers a handler failure with a 500 that hides its message, and logs it', async () => {
    const response = await call('/things/boom');
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain('users_v2');
    expect(warnings.some((warning) => warning.includes('users_v2'))).toBe(true);
  });

  it('sends the problem a handler returns', async () => {
    const response = await call('/things/nope');
    expect(response.status).toBe(404);
    expect(((await response.json()) as { detail: string }).detail).toBe("no thing 'nope'");
  });
});

describe('openApiDocument', () => {
  type Operation = { operationId: string; parameters: Array<{ name: string; in: string; required: boolean; schema: object }>; requestBody?: { content: Record<string, { schema: { required?: string[] } }> }; responses: Record<string, object>; security?: unknown[] };
  const document = openApiDocument(routes, { title: 'Test', version: '1' }) as { openapi: string; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, object> } };

  it('is OpenAPI 3.1 with paths in OpenAPI template syntax', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths).sort()).toStrictEqual(['/ping', '/things/{id}']);
  });

  it('gives every operation a unique operationId', () => {
    const ids = Object.values(document.paths).flatMap((methods) => Object.values(methods).map((operation) => operation.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toStrictEqual(['createThing', 'deleteThing', 'getThing', 'ping']);
  });

  it('declares path parameters as required, and optional query parameters and headers as not', () => {
    const parameters = document.paths['/things/{id}']!.post!.parameters;
    expect(parameters.map(({ name, in: where, required }) => ({ name, where, required }))).toStrictEqual([
      { name: 'id', where: 'path', required: true },
      { name: 'dryRun', where: 'query', required: false },
      { name: 'x-request-priority', where: 'header', required: false },
    ]);
  });

  it('describes the request body from its zod schema, unknown fields refused', () => {
    const body = document.paths['/things/{id}']!.post!.requestBody!;
    expect(body.content['application/json']!.schema).toMatchObject({ required: ['name', 'tags'], additionalProperties: false });
  });

  it('refers every operation’s errors to the Problem schema, and marks public routes as needing no credentials', () => {
    expect(document.paths['/things/{id}']!.get!.responses.default).toMatchObject({ content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } });
    expect(document.components.schemas.Problem).toBeDefined();
    expect(document.paths['/ping']!.get!.security).toStrictEqual([]);
    expect(document.paths['/things/{id}']!.get!.security).toBeUndefined();
  });

  describe('recursive schemas', () => {
    interface Folder {
      name: string;
      children: Folder[];
    }
    const Folder: z.ZodType<Folder> = z.object({ name: z.string(), get children() { return z.array(Folder); } });
    const tree = (operationId: string, path: string, schema: z.ZodType): AnyRoute =>
      defineRoute({ method: 'get', path, operationId, summary: 'A tree', tag: 'Trees', access: 'member', responses: { 200: { description: 'The tree', schema } }, handle: async () => noContent() });
    const recursive = openApiDocument(
      [tree('getTrees', '/trees', z.object({ trees: z.array(Folder) })), tree('getTree', '/tree', Folder), tree('getForest', '/forest', z.object({ forest: z.array(Folder) }))],
      { title: 'T', version: '1' },
    ) as { paths: Record<string, { get: { responses: { 200: { content: { 'application/json': { schema: object } } } } } }>; components: { schemas: Record<string, object> } };
    const refs = (value: unknown): string[] => (value === null || typeof value !== 'object' ? [] : Object.entries(value).flatMap(([key, item]) => (key === '$ref' ? [item as string] : refs(item))));
    const schemaOf = (path: string): object => recursive.paths[path]!.get.responses[200].content['application/json'].schema;

    it("refers a nested recursive schema's definition to a component, since '#' is the document's root", () => {
      const [ref] = refs(schemaOf('/trees'));
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(refs(recursive.components.schemas[ref!.split('/').pop()!])).toStrictEqual([ref]);
    });

    it('refers a recursive root schema to a component of its own', () => {
      const { $ref } = schemaOf('/tree') as { $ref: string };
      expect(refs(recursive.components.schemas[$ref.split('/').pop()!])).toStrictEqual([$ref]);
    });

    it('keeps one component for the same definition used by two routes, and leaves no reference unresolved', () => {
      expect(refs(schemaOf('/forest'))).toStrictEqual(refs(schemaOf('/trees')));
      const names = new Set(Object.keys(recursive.components.schemas).map((name) => `#/components/schemas/${name}`));
      expect(refs(recursive).filter((ref) => !names.has(ref))).toStrictEqual([]);
    });
  });

  it('refuses two routes sharing an operationId', () => {
    expect(() => openApiDocument([routes[0]!, { ...routes[1]!, operationId: 'createThing' }], { title: 'T', version: '1' })).toThrow(/createThing/);
  });
});
