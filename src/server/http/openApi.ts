import { z } from 'zod';
import type { AnyRoute } from './route.js';

// The OpenAPI 3.1 document of /api/v1, generated from the routes' own zod schemas
// (GET /api/v1/openapi.json). OpenAPI 3.1 schemas are JSON Schema 2020-12, which zod emits.

type JsonSchema = Record<string, unknown>;

/**
 * The document's shared schemas. zod puts a recursive schema's definitions in `$defs`, referred to
 * as `#/$defs/…`, and refers to a recursive root as `#`; in an OpenAPI document `#` is the
 * document's root, so generated clients and validators fail on such references. Each definition
 * (and a recursive root) moves here and its references follow it; the same definition from two
 * routes is kept once.
 */
interface Components {
  schemas: Record<string, JsonSchema>;
  namesByContent: Map<string, string>;
}

const ROOT = '#';

/** The definition a zod reference names (ROOT for the schema's own root), or undefined for another reference. */
function refTarget(ref: string): string | undefined {
  if (ref === ROOT) return ROOT;
  const pointer = /^#\/\$defs\/(.+)$/.exec(ref)?.[1];
  return pointer?.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** `value` with every reference to a definition turned into one to the component `names` gives it. */
function withRefs(value: unknown, names: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => withRefs(item, names));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      const target = key === '$ref' && typeof item === 'string' ? refTarget(item) : undefined;
      const name = target === undefined ? undefined : names.get(target);
      return [key, name === undefined ? withRefs(item, names) : `#/components/schemas/${name}`];
    }),
  );
}

function schemaOf(schema: z.ZodType, io: 'input' | 'output', components: Components): JsonSchema {
  const { $schema: _, $defs = {}, ...root } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema & { $defs?: Record<string, JsonSchema> };
  const recursiveRoot = JSON.stringify([root, $defs]).includes('"$ref":"#"');
  const definitions: Array<[string, JsonSchema]> = [...Object.entries($defs), ...(recursiveRoot ? [[ROOT, root] as [string, JsonSchema]] : [])];
  const names = new Map<string, string>();
  for (const [definition, body] of definitions) {
    const content = JSON.stringify(body);
    const name = components.namesByContent.get(content) ?? `Schema${components.namesByContent.size + 1}`;
    components.namesByContent.set(content, name);
    names.set(definition, name);
  }
  for (const [definition, body] of definitions) components.schemas[names.get(definition)!] = withRefs(body, names) as JsonSchema;
  return recursiveRoot ? { $ref: `#/components/schemas/${names.get(ROOT)!}` } : (withRefs(root, names) as JsonSchema);
}

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query' | 'header', components: Components): JsonSchema[] {
  if (schema === undefined) return [];
  if (!(schema instanceof z.ZodObject)) throw new Error(`route ${where} schemas must be z.object(...)`);
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => ({
    name,
    in: where,
    required: where === 'path' || !field.safeParse(undefined).success,
    ...(field.description ? { description: field.description } : {}),
    schema: schemaOf(field, 'input', components),
  }));
}

const PROBLEM_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'RFC 9457 problem details',
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    errors: { type: 'array', items: { type: 'object', properties: { pointer: { type: 'string' }, detail: { type: 'string' } }, required: ['pointer', 'detail'] } },
  },
  required: ['type', 'title', 'status'],
};

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
}

export function openApiDocument(routes: readonly AnyRoute[], info: OpenApiInfo): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const components: Components = { schemas: { Problem: PROBLEM_SCHEMA }, namesByContent: new Map() };
  const operationIds = new Set<string>();
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
    // Parts are built apart and merged: a clash would make clients generated from the document wrong.
    if (operationIds.has(route.operationId)) throw new Error(`two routes have the operationId '${route.operationId}': operationIds must be unique`);
    if (paths[path]?.[route.method]) throw new Error(`two routes answer ${route.method.toUpperCase()} ${route.path}`);
    operationIds.add(route.operationId);
    const responses: Record<string, JsonSchema> = {};
    for (const [status, response] of Object.entries(route.responses)) {
      const contentType = response.contentType ?? (response.schema ? 'application/json' : undefined);
      responses[status] = {
        description: response.description,
        ...(contentType ? { content: { [contentType]: response.schema ? { schema: schemaOf(response.schema, 'output', components) } : {} } } : {}),
      };
    }
    responses.default = { description: 'A problem (RFC 9457)', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } };
    paths[path] ??= {};
    paths[path][route.method] = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [route.tag],
      parameters: [...parameters(route.params, 'path', components), ...parameters(route.query, 'query', components), ...parameters(route.headers, 'header', components)],
      ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(route.body, 'input', components) } } } } : {}),
      responses,
      ...(route.access === 'public' ? { security: [] } : {}),
    };
  }
  return {
    openapi: '3.1.0',
    info,
    servers: [{ url: '/api/v1' }],
    paths,
    components: {
      schemas: components.schemas,
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key (syndicate keys create)' },
        studioSession: { type: 'apiKey', in: 'cookie', name: 'syndicate_session', description: 'The studio session; state-changing requests also send the X-CSRF-Token header' },
      },
    },
    security: [{ apiKey: [] }, { studioSession: [] }],
  };
}
