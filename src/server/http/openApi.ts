import { z } from 'zod';
import type { AnyRoute } from './route.js';

// The OpenAPI 3.1 document of /api/v1, generated from the routes' own zod schemas
// (GET /api/v1/openapi.json). OpenAPI 3.1 schemas are JSON Schema 2020-12, which zod emits.

type JsonSchema = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query' | 'header'): JsonSchema[] {
  if (schema === undefined) return [];
  if (!(schema instanceof z.ZodObject)) throw new Error(`route ${where} schemas must be z.object(...)`);
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => ({
    name,
    in: where,
    required: where === 'path' || !field.safeParse(undefined).success,
    ...(field.description ? { description: field.description } : {}),
    schema: schemaOf(field, 'input'),
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
        ...(contentType ? { content: { [contentType]: response.schema ? { schema: schemaOf(response.schema, 'output') } : {} } } : {}),
      };
    }
    responses.default = { description: 'A problem (RFC 9457)', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } };
    paths[path] ??= {};
    paths[path][route.method] = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [route.tag],
      parameters: [...parameters(route.params, 'path'), ...parameters(route.query, 'query'), ...parameters(route.headers, 'header')],
      ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(route.body, 'input') } } } } : {}),
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
      schemas: { Problem: PROBLEM_SCHEMA },
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key (syndicate keys create)' },
        studioSession: { type: 'apiKey', in: 'cookie', name: 'syndicate_session', description: 'The studio session; state-changing requests also send the X-CSRF-Token header' },
      },
    },
    security: [{ apiKey: [] }, { studioSession: [] }],
  };
}
