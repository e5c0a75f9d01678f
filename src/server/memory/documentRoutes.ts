import { z } from 'zod';
import type { DocumentSummary, Documents } from '../../memory/documents/documents.js';
import { DocumentError, DocumentNotFoundError } from '../../memory/documents/errors.js';
import { documentPathProblem, formatAddress, isBundleName, withMarkdownExtension } from '../../memory/documents/paths.js';
import type { ApiCaller } from '../caller.js';
import type { ServerContext } from '../context.js';
import { defineRoute, fail, json, type AnyRoute, type Reply } from '../http/route.js';
import { isReply } from '../turns/lookups.js';
import { callerSilo, siloMemory } from './callerSilo.js';
import { syndicateParams } from './factRoutes.js';

// The caller's markdown document bundles in one syndicate's silo: the bundles as a tree, read,
// write (a new revision), delete, the revision history, a diff between two revisions, rollback
// (a new revision with an old content) and the link graph. Everything goes through the same
// Documents the memory tools use, so an agent's writes and a person's share one history.

const bundleSchema = z
  .string()
  .refine(isBundleName, { error: "a bundle name: 1-64 lowercase letters, digits, '_' or '-', starting with a letter or digit" })
  .describe('A bundle name');

/** A document path, '.md' added when missing; `reserved`: index.md and log.md, which Syndicate writes, may be named (to read). */
function pathSchema(reserved: boolean) {
  return z
    .string()
    .transform((path, context) => {
      const normalised = withMarkdownExtension(path);
      const problem = documentPathProblem(normalised, reserved);
      if (problem === undefined) return normalised;
      context.addIssue({ code: 'custom', message: `not a document path: ${problem}` });
      return z.NEVER;
    })
    .describe("The document's path in its bundle, URL-encoded ('notes/trip.md' is notes%2Ftrip.md); '.md' is added when missing");
}

const readParams = syndicateParams.extend({ bundle: bundleSchema, path: pathSchema(true) });
const documentParams = syndicateParams.extend({ bundle: bundleSchema, path: pathSchema(false) });
const reasonSchema = z.string().trim().min(1).max(500).describe('Why, recorded in the revision');

interface TreeNode {
  name: string;
  /** The folder's or document's path in its bundle. */
  path: string;
  kind: 'folder' | 'document';
  title: string | null;
  bytes: number | null;
  indexedAt: number | null;
  children: TreeNode[];
}

const treeNodeSchema: z.ZodType<TreeNode> = z.object({
  name: z.string(),
  path: z.string(),
  kind: z.enum(['folder', 'document']),
  title: z.string().nullable(),
  bytes: z.number().int().nullable(),
  indexedAt: z.number().int().nullable().describe('Milliseconds since the epoch'),
  get children() {
    return z.array(treeNodeSchema).describe('Folders first, then documents, each by name');
  },
});

const changeSchema = z.object({
  bundle: z.string(),
  path: z.string(),
  revision: z.number().int().nullable().describe('The revision recorded; null when the content already was the one asked for'),
});

const revisionSummarySchema = z.object({
  id: z.number().int(),
  bundle: z.string(),
  path: z.string(),
  action: z.enum(['write', 'delete']),
  actor: z.string(),
  reason: z.string(),
  at: z.number().int(),
  added: z.number().int(),
  removed: z.number().int(),
});

const revisionSchema = revisionSummarySchema.omit({ added: true, removed: true }).extend({
  diff: z.string().describe('Unified diff from the previous content'),
  content: z.string().nullable().describe('The content after the change; null after a delete'),
});

function sortTree(nodes: TreeNode[]): TreeNode[] {
  for (const node of nodes) sortTree(node.children);
  return nodes.sort((a, b) => (a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === 'folder' ? -1 : 1));
}

/** The bundles' documents as folders and documents, from their '/'-separated paths. */
export function bundleTrees(documents: readonly DocumentSummary[]): Array<{ name: string; tree: TreeNode[] }> {
  const bundles = new Map<string, TreeNode[]>();
  for (const document of documents) {
    let level = bundles.get(document.bundle) ?? [];
    bundles.set(document.bundle, level);
    const segments = document.path.split('/');
    segments.slice(0, -1).forEach((name, depth) => {
      let folder = level.find((node) => node.kind === 'folder' && node.name === name);
      if (folder === undefined) {
        folder = { name, path: segments.slice(0, depth + 1).join('/'), kind: 'folder', title: null, bytes: null, indexedAt: null, children: [] };
        level.push(folder);
      }
      level = folder.children;
    });
    level.push({ name: segments.at(-1)!, path: document.path, kind: 'document', title: document.title, bytes: document.bytes, indexedAt: document.indexedAt, children: [] });
  }
  return [...bundles].sort(([a], [b]) => a.localeCompare(b)).map(([name, tree]) => ({ name, tree: sortTree(tree) }));
}

/** A refusal of the documents layer as a problem: 404 for what does not exist, 422 for content it refuses. */
async function answer(work: () => Promise<Reply>): Promise<Reply> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DocumentNotFoundError) return fail(404, error.message);
    if (error instanceof DocumentError) return fail(422, error.message);
    throw error;
  }
}

const actorOf = (caller: ApiCaller): string => `user:${caller.userId}`;

export function documentRoutes(ctx: ServerContext): AnyRoute[] {
  /** Runs `work` with the documents of the caller's silo of the syndicate, or answers why not. */
  const withDocuments = async (caller: ApiCaller, syndicate: string, work: (documents: Documents, silo: string) => Promise<Reply>): Promise<Reply> => {
    const target = callerSilo(ctx, caller, syndicate);
    if (isReply(target)) return target;
    const { documents } = await siloMemory(ctx, target);
    return answer(() => work(documents, target.silo));
  };
  const base = '/memory/:syndicate/documents/:bundle/:path';
  const missing = { description: 'No such syndicate with long-term memory, or no such document of yours' };
  return [
    defineRoute({
      method: 'get',
      path: '/memory/:syndicate/documents',
      operationId: 'listDocuments',
      summary: 'Your document bundles as trees of folders and documents',
      tag: 'Memory',
      access: 'viewer',
      params: syndicateParams,
      query: z.object({ bundle: bundleSchema.optional().describe('Only this bundle') }),
      responses: {
        200: {
          description: 'The bundles, and files that changed outside Syndicate and cannot be indexed',
          schema: z.object({ bundles: z.array(z.object({ name: z.string(), tree: z.array(treeNodeSchema) })), problems: z.array(z.string()) }),
        },
        404: { description: 'No such syndicate, or it keeps no long-term memory' },
      },
      handle: async ({ params, query, caller }) =>
        withDocuments(caller, params.syndicate, async (documents, silo) => {
          const listed = await documents.list(silo, query.bundle);
          return json({ bundles: bundleTrees(listed.documents), problems: listed.problems });
        }),
    }),
    defineRoute({
      method: 'get',
      path: '/memory/:syndicate/graph',
      operationId: 'getDocumentGraph',
      summary: 'The link graph of your documents: nodes and the links between them',
      tag: 'Memory',
      access: 'viewer',
      params: syndicateParams,
      query: z.object({ bundle: bundleSchema.optional().describe("Only links from this bundle's documents") }),
      responses: {
        200: {
          description: "Nodes (a link's target that does not exist has title null) and edges between their keys",
          schema: z.object({
            nodes: z.array(z.object({ key: z.string().describe("'bundle/path'"), bundle: z.string(), path: z.string(), title: z.string().nullable() })),
            edges: z.array(z.object({ from: z.string(), to: z.string(), label: z.string() })),
          }),
        },
        404: { description: 'No such syndicate, or it keeps no long-term memory' },
      },
      handle: async ({ params, query, caller }) =>
        withDocuments(caller, params.syndicate, async (documents, silo) => {
          const graph = await documents.graph(silo, query.bundle);
          return json({ nodes: graph.nodes.map((node) => ({ key: formatAddress(node), bundle: node.bundle, path: node.path, title: node.title ?? null })), edges: graph.edges });
        }),
    }),
    defineRoute({
      method: 'get',
      path: '/memory/:syndicate/revisions/:id',
      operationId: 'getDocumentRevision',
      summary: 'One revision of a document of yours, with its diff and content',
      tag: 'Memory',
      access: 'viewer',
      params: syndicateParams.extend({ id: z.coerce.number().int().min(1).describe('A revision id') }),
      responses: { 200: { description: 'The revision', schema: z.object({ revision: revisionSchema }) }, 404: { description: 'No such revision of yours' } },
      handle: async ({ params, caller }) =>
        withDocuments(caller, params.syndicate, async (documents, silo) => json({ revision: await documents.revision(silo, params.id) })),
    }),
    defineRoute({
      method: 'get',
      path: base,
      operationId: 'readDocument',
      summary: 'Reads a document of yours (index.md and log.md, which Syndicate keeps, too)',
      tag: 'Memory',
      access: 'viewer',
      params: readParams,
      responses: {
        200: {
          description: 'The document',
          schema: z.object({
            bundle: z.string(),
            path: z.string(),
            title: z.string(),
            frontmatter: z.record(z.string(), z.unknown()),
            content: z.string().describe('The markdown, frontmatter included'),
            problems: z.array(z.string()).describe('Why the document, changed outside Syndicate, cannot be indexed'),
          }),
        },
        404: missing,
      },
      handle: async ({ params, caller }) => withDocuments(caller, params.syndicate, async (documents, silo) => json(await documents.read(silo, params.bundle, params.path))),
    }),
    defineRoute({
      method: 'put',
      path: base,
      operationId: 'writeDocument',
      summary: 'Writes a document of yours: a new revision (none when the content is unchanged)',
      tag: 'Memory',
      access: 'member',
      params: documentParams,
      body: z.strictObject({ content: z.string().describe('The markdown, frontmatter included (at most 1 MiB)'), reason: reasonSchema.default('written over the API') }),
      responses: { 200: { description: 'Written', schema: changeSchema }, 404: missing, 422: { description: 'The content is refused (size, frontmatter)' } },
      handle: async ({ params, body, caller }) =>
        withDocuments(caller, params.syndicate, async (documents, silo) => {
          const { bundle, path, revision } = await documents.write(silo, { bundle: params.bundle, path: params.path, content: body.content, actor: actorOf(caller), reason: body.reason });
          return json({ bundle, path, revision: revision ?? null });
        }),
    }),
    defineRoute({
      method: 'delete',
      path: base,
      operationId: 'deleteDocument',
      summary: 'Deletes a document of yours: a delete revision, which can be rolled back',
      tag: 'Memory',
      access: 'member',
      params: documentParams,
      query: z.object({ reason: reasonSchema.default('deleted over the API') }),
      responses: { 200: { description: 'Deleted', schema: changeSchema }, 404: missing },
      handle: async ({ params, query, caller }) =>
        withDocuments(caller, params.syndicate, async (documents, silo) => {
          const { bundle, path, revision } = await documents.delete(silo, { bundle: params.bundle, path: params.path, actor: actorOf(caller), reason: query.reason });
          return json({ bundle, path, revision: revision ?? null });
        }),
    }),
    defineRoute({
      method: 'get',
      path: `${base}/revisions`,
      operationId: 'listDocumentRevisions',
      summary: "A document's revisions, newest first",
      tag: 'Memory',
      access: 'viewer',
      params: documentParams,
      query: z.object({ limit: z.coerce.number().int().min(1).max(1_000).default(100) }),
      responses: { 200: { description: 'The revisions', schema: z.object({ revisions: z.array(revisionSummarySchema) }) }, 404: missing },
      handle: async ({ params, query, caller }) =>
        withDocuments(caller, params.syndicate, async (documents, silo) => json({ revisions: await documents.history(silo, params.bundle, params.path, query.limit) })),
    }),
    defineRoute({
      method: 'get',
      path: `${base}/diff`,
      operationId: 'diffDocumentRevisions',
      summary: "Unified diff between a document's contents after two of its revisions",
      tag: 'Memory',
      access: 'viewer',
      params: documentParams,
      query: z.object({ from: z.coerce.number().int().min(1).describe('A revision id'), to: z.coerce.number().int().min(1).describe('A later (or earlier) revision id') }),
      responses: { 200: { description: 'The diff', schema: z.object({ from: z.number().int(), to: z.number().int(), diff: z.string() }) }, 404: missing },
      handle: async ({ params, query, caller }) =>
        withDocuments(caller, params.syndicate, async (documents, silo) => {
          const address = formatAddress(params);
          for (const id of [query.from, query.to]) {
            const revision = await documents.revision(silo, id);
            if (formatAddress(revision) !== address) return fail(404, `revision ${id} is of ${formatAddress(revision)}, not ${address}; GET /memory/${params.syndicate}/documents/${params.bundle}/${encodeURIComponent(params.path)}/revisions lists this document's`);
          }
          return json({ from: query.from, to: query.to, diff: await documents.diff(silo, query.from, query.to) });
        }),
    }),
    defineRoute({
      method: 'post',
      path: `${base}/rollback`,
      operationId: 'rollbackDocument',
      summary: 'Gives a document the content it had after one of its revisions, as a new revision',
      description: 'Rolling back to a delete revision deletes the document.',
      tag: 'Memory',
      access: 'member',
      params: documentParams,
      body: z.strictObject({ revision: z.number().int().min(1).describe("One of the document's revision ids"), reason: reasonSchema.default('rolled back over the API') }),
      responses: { 200: { description: 'Rolled back', schema: changeSchema }, 404: missing, 422: { description: 'The revision is of another document' } },
      handle: async ({ params, body, caller }) =>
        withDocuments(caller, params.syndicate, async (documents, silo) => {
          const { bundle, path, revision } = await documents.rollback(silo, { bundle: params.bundle, path: params.path, revision: body.revision, actor: actorOf(caller), reason: body.reason });
          return json({ bundle, path, revision: revision ?? null });
        }),
    }),
  ];
}
