import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serverParts } from '../../../src/cli/serveCommand.js';
import type { AnyRoute } from '../../../src/server/http/route.js';
import { memoryRoutes } from '../../../src/server/memory/memoryRoutes.js';
import type { Store } from '../../../src/store/store.js';
import { startTestServer, type TestServer } from '../serverFixture.js';

// The memory API's contract: `syndicate serve` mounts it, /api/v1/openapi.json describes every
// route from the same zod schemas that validate it, and no bad request changes stored memory.

let t: TestServer;
let routes: AnyRoute[];
let store: Store;

beforeAll(async () => {
  t = await startTestServer(['concierge.yaml'], { routes: memoryRoutes });
  routes = memoryRoutes({ platform: t.platform, syndicates: t.registry, authenticate: async () => ({ userId: 'x', role: 'viewer', via: 'key' }), warn: () => undefined });
  store = await t.platform.store();
}, 60_000);

afterAll(async () => {
  await t.server.close({ graceMs: 0 });
});

type Operation = { operationId: string; tags: string[]; parameters: Array<{ name: string; in: string }>; requestBody?: { content: Record<string, { schema: unknown }> }; responses: Record<string, { content?: Record<string, { schema?: unknown }> }> };

describe('the memory API in /api/v1/openapi.json', () => {
  it('is mounted by syndicate serve', async () => {
    const parts = await serverParts(t.platform, t.registry, {}, () => undefined);
    expect(parts.routes?.map((route) => route.operationId)).toStrictEqual(routes.map((route) => route.operationId));
  });

  it("describes every route with its parameters, body and responses from the route's own schemas", async () => {
    const document = (await (await fetch(`${t.server.url}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };
    const sameSchema = (described: unknown, schema: z.ZodType, io: 'input' | 'output'): void => expectSameSchema(described, z.toJSONSchema(schema, { io, unrepresentable: 'any' }), document.components.schemas);
    for (const route of routes) {
      const operation = document.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method];
      expect(operation, `${route.method} ${route.path}`).toMatchObject({ operationId: route.operationId, tags: ['Memory'] });
      const named = (schema: z.ZodType | undefined, where: string) => Object.keys(schema instanceof z.ZodObject ? schema.shape : {}).map((name) => ({ name, in: where }));
      expect(operation!.parameters.map(({ name, in: where }) => ({ name, in: where }))).toStrictEqual([...named(route.params, 'path'), ...named(route.query, 'query')]);
      if (route.body) sameSchema(operation!.requestBody?.content['application/json']?.schema, route.body, 'input');
      else expect(operation!.requestBody).toBeUndefined();
      for (const [status, response] of Object.entries(route.responses)) {
        const described = operation!.responses[status]?.content?.['application/json']?.schema;
        if (response.schema) sameSchema(described, response.schema, 'output');
      }
    }
  });
});

/**
 * The document's schema is zod's, except that zod's references to its own definitions
 * (`#/$defs/…`) are references to the document's components, which hold those definitions.
 */
function expectSameSchema(described: unknown, emitted: Record<string, unknown>, components: Record<string, unknown>): void {
  const { $schema: _, $defs = {}, ...root } = emitted as { $schema?: string; $defs?: Record<string, unknown> };
  const pending: Array<[unknown, unknown]> = [[described, root]];
  const compared = new Set<string>();
  const refsOf = (value: unknown, path: string[] = []): Array<[string[], string]> =>
    value === null || typeof value !== 'object' ? [] : Object.entries(value).flatMap(([key, item]) => (key === '$ref' ? [[path, item as string]] : refsOf(item, [...path, key])));
  const at = (value: unknown, path: string[]): unknown => path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], value);
  const blanked = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (key, item: unknown) => (key === '$ref' ? '<ref>' : item)));
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [ours, zods] = next;
    expect(blanked(ours)).toStrictEqual(blanked(zods));
    for (const [path, ref] of refsOf(zods)) {
      const definition = ref.replace('#/$defs/', '');
      const component = (at(ours, path) as { $ref: string }).$ref.replace('#/components/schemas/', '');
      if (compared.has(definition)) continue;
      compared.add(definition);
      pending.push([components[component], $defs[definition]]);
    }
  }
}

/** Everything memory holds: every silo's facts, documents and revisions. */
async function snapshot(): Promise<unknown> {
  const facts = await Promise.all((await store.facts.listSilos()).map(async ({ silo }) => [silo, await store.facts.listFacts(silo)]));
  const documents = await Promise.all(
    (await store.documents.listSilos()).map(async (silo) => {
      const listed = await store.documents.listDocuments(silo);
      return [silo, await Promise.all(listed.map(async (document) => [document, await store.documents.listRevisions(silo, document)]))];
    }),
  );
  return { facts, documents };
}

describe('bad requests to the memory API', () => {
  it('change nothing stored, whatever they send', async () => {
    const put = (content: unknown) => ({ method: 'PUT', body: JSON.stringify({ content }) });
    const written = (await (await t.api(`/memory/concierge/documents/notes/${encodeURIComponent('a.md')}`, put('# A\n'))).json()) as { revision: number };
    const bobs = (await (await t.api(`/memory/concierge/documents/notes/b.md`, { ...put('# B\n'), key: 'bob-key' })).json()) as { revision: number };
    const facts = (await store.facts.listSilos()).length;
    const before = await snapshot();
    const requests: Array<[string, RequestInit & { key?: string }, number]> = [
      ['/memory/concierge/documents/notes/a.md', put(42), 400],
      ['/memory/concierge/documents/notes/a.md', { method: 'PUT', body: JSON.stringify({ content: '# A2\n', extra: true }) }, 400],
      ['/memory/concierge/documents/notes/a.md', { method: 'PUT', body: '{"content":' }, 400],
      ['/memory/concierge/documents/notes/a.md', { method: 'PUT', body: JSON.stringify({ content: 'x'.repeat(1_100_000) }) }, 413],
      ['/memory/concierge/documents/notes/a.md', { ...put('# A3\n'), key: 'vera-key' }, 403],
      ['/memory/concierge/documents/notes/a.md', { ...put('# A3\n'), key: 'nobody' }, 401],
      ['/memory/concierge/documents/notes/a.md', { method: 'DELETE', key: 'vera-key' }, 403],
      ['/memory/concierge/documents/notes/b.md', { method: 'DELETE' }, 404],
      ['/memory/concierge/documents/notes/log.md', put('# Log\n'), 400],
      ['/memory/concierge/documents/notes/a.md/rollback', { method: 'POST', body: JSON.stringify({ revision: 'first' }) }, 400],
      ['/memory/concierge/documents/notes/a.md/rollback', { method: 'POST', body: JSON.stringify({ revision: bobs.revision }) }, 404],
      ['/memory/concierge/documents/notes/a.md/rollback', { method: 'POST', body: JSON.stringify({ revision: written.revision + 1_000 }) }, 404],
      ['/memory/nope/documents/notes/a.md', put('# A\n'), 404],
      ['/memory/concierge/facts/no-such-fact', { method: 'PATCH', body: JSON.stringify({ text: 'x' }) }, 404],
      ['/memory/concierge/facts/no-such-fact', { method: 'PATCH', body: JSON.stringify({ tag: 'fact' }) }, 400],
      ['/memory/concierge/facts/no-such-fact', { method: 'DELETE' }, 404],
    ];
    for (const [path, init, status] of requests) {
      const response = await t.api(path, { ...init, headers: { 'content-type': 'application/json' } });
      expect(response.status, `${init.method} ${path}`).toBe(status);
      expect(response.headers.get('content-type'), `${init.method} ${path}`).toMatch(/^application\/problem\+json/);
    }
    expect(await snapshot()).toStrictEqual(before);
    expect((await store.facts.listSilos()).length).toBe(facts);
  });
});
