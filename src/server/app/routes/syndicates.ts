import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { SyndicateConfigError } from '../../../config/errors.js';
import { loadSyndicate } from '../../../config/loadSyndicate.js';
import type { CompiledAgent } from '../../../runtime/compileSyndicate.js';
import type { SyndicateEntry, SyndicateRegistry } from '../../context.js';
import { defineRoute, fail, json, type AnyRoute, type Reply } from '../../http/route.js';

// GET /syndicates, GET /syndicates/:id, POST /syndicates/validate: what the server serves, and
// whether a file would load. An entry whose latest edit is invalid still serves its previous
// version; `error` says what is wrong with the file now.

const loadErrorSchema = z.object({ message: z.string(), file: z.string(), line: z.number().int().nullable(), column: z.number().int().nullable() });

const summarySchema = z.object({
  id: z.string(),
  name: z.string(),
  file: z.string(),
  description: z.string().nullable(),
  agents: z.array(z.string()),
  status: z.enum(['ok', 'error']),
  error: loadErrorSchema.nullable(),
  warnings: z.array(z.string()),
});

const agentSchema = z.object({ name: z.string(), model: z.string(), description: z.string().nullable(), tools: z.array(z.string()), subagents: z.array(z.string()) });
const detailSchema = summarySchema.extend({ agents: z.array(agentSchema), routes: z.array(z.object({ name: z.string(), description: z.string().nullable() })) });

const issueSchema = z.object({ message: z.string(), line: z.number().int(), column: z.number().int(), path: z.string() });
const validateBody = z.strictObject({
  yaml: z.string().max(1_000_000).describe('The syndicate file, as text'),
  filename: z.string().regex(/^[A-Za-z0-9._-]{1,128}$/, 'a bare file name: letters, digits, ".", "_" or "-"').optional(),
});

function summaryOf(entry: SyndicateEntry): z.infer<typeof summarySchema> {
  const current = entry.current;
  return {
    id: entry.id,
    name: current?.name ?? entry.id,
    file: entry.file,
    description: current?.compiled.description ?? null,
    agents: current ? [...current.compiled.agents.keys()] : [],
    status: entry.error ? 'error' : 'ok',
    error: entry.error ? { message: entry.error.message, file: entry.error.file, line: entry.error.line ?? null, column: entry.error.column ?? null } : null,
    warnings: current?.warnings ?? [],
  };
}

function agentOf(agent: CompiledAgent): z.infer<typeof agentSchema> {
  return {
    name: agent.name,
    model: agent.remote ? 'a2a' : agent.modelId,
    description: agent.description || null,
    tools: [...agent.tools.keys(), ...agent.memoryTools],
    subagents: [...agent.subagents.keys()],
  };
}

/** The 404 of an unknown syndicate, naming the ones there are. */
export function unknownSyndicate(registry: SyndicateRegistry, id: string): Reply {
  const known = registry.list().map((entry) => entry.id);
  return fail(404, `no syndicate '${id}' is served; known: ${known.length > 0 ? known.join(', ') : 'none'}`);
}

function issuesOf(error: unknown, file: string): z.infer<typeof issueSchema>[] {
  if (error instanceof SyndicateConfigError) return error.issues.map(({ message, line, column, path }) => ({ message, line, column, path }));
  return [{ message: error instanceof Error ? error.message : String(error), line: 0, column: 0, path: basename(file) }];
}

/** Loads posted YAML as a file would be (the loader reads files): in a folder of its own, removed after. */
function validate(yaml: string, filename: string): z.infer<typeof issueSchema>[] {
  const folder = mkdtempSync(join(tmpdir(), 'syndicate-validate-'));
  const file = join(folder, filename);
  try {
    writeFileSync(file, yaml);
    loadSyndicate(file);
    return [];
  } catch (error) {
    return issuesOf(error, file).map((issue) => ({ ...issue, message: issue.message.replaceAll(folder, '.') }));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

export function syndicateRoutes(registry: SyndicateRegistry): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/syndicates',
      operationId: 'listSyndicates',
      summary: 'The syndicates this server serves, with their load status',
      tag: 'Syndicates',
      access: 'viewer',
      responses: { 200: { description: 'Every syndicate file served', schema: z.object({ syndicates: z.array(summarySchema) }) } },
      handle: async () => json({ syndicates: registry.list().map(summaryOf) }),
    }),
    defineRoute({
      method: 'get',
      path: '/syndicates/:id',
      operationId: 'getSyndicate',
      summary: "One syndicate: its agents, tools, models and routes, and its file's warnings or error",
      tag: 'Syndicates',
      access: 'viewer',
      params: z.object({ id: z.string().min(1).max(64) }),
      responses: { 200: { description: 'The syndicate', schema: detailSchema }, 404: { description: 'No such syndicate' } },
      handle: async ({ params }) => {
        const entry = registry.get(params.id);
        if (!entry) return unknownSyndicate(registry, params.id);
        const compiled = entry.current?.compiled;
        const routes = compiled?.root.dispatch ? [...compiled.root.subagents.values()].map((route) => ({ name: route.name, description: route.description || null })) : [];
        return json({ ...summaryOf(entry), agents: compiled ? [...compiled.agents.values()].map(agentOf) : [], routes });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/syndicates/validate',
      operationId: 'validateSyndicate',
      summary: 'Checks a syndicate file without serving it',
      description: 'Files it mounts or reads cannot be reached from a posted file: name them in a served folder instead.',
      tag: 'Syndicates',
      access: 'viewer',
      body: validateBody,
      responses: { 200: { description: 'Whether it loads, and every issue found', schema: z.object({ valid: z.boolean(), issues: z.array(issueSchema) }) } },
      handle: async ({ body }) => {
        const issues = validate(body.yaml, body.filename ?? 'syndicate.yaml');
        return json({ valid: issues.length === 0, issues });
      },
    }),
  ];
}
