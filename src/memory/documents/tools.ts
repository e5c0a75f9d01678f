import { z } from 'zod';
import { assertSilo } from '../../core/silo.js';
import { defineTool, type AnyTool, type ToolContext } from '../../core/tool.js';
import type { DocumentAddress } from '../../store/documents.js';
import type { Documents, FollowedLink } from './documents.js';
import { formatAddress } from './paths.js';
import { asReferenceData } from './referenceData.js';
import { SEARCH_DEFAULTS } from './searchDocuments.js';

// The agent's tools over one silo's document bundles. A refusal (bad path, missing document,
// oversized content) is thrown as a DocumentError, which the runtime and the MCP face hand back to
// the model as an error result. Everything read from memory reaches the model wrapped as reference data.

export interface DocumentToolsOptions {
  silo: string;
  /** Recorded as the author of changes; defaults to 'agent:<name of the calling agent>'. */
  actor?: string;
}

const bundle = z.string().min(1).max(64).describe("Bundle name, e.g. 'notes' (lowercase letters, digits, '_' or '-').");
const path = z.string().min(1).max(240).describe("Document path inside the bundle, e.g. 'projects/apollo.md' ('.md' may be left out).");
const reason = z.string().min(1).max(500).describe('Why you make this change, in a sentence; kept in the revision history.');

const searchInput = z.object({
  query: z.string().min(1).max(1_000).describe('What you are looking for, in words.'),
  bundle: bundle.optional().describe('Search only this bundle.'),
  limit: z.number().int().min(1).max(20).optional().describe(`Most passages to return (default ${SEARCH_DEFAULTS.limit}).`),
});
const readInput = z.object({
  bundle,
  path,
  from_line: z.number().int().min(1).optional().describe('First line to return (1-based), e.g. from a memory_search hit.'),
  to_line: z.number().int().min(1).optional().describe('Last line to return (inclusive).'),
});
const writeInput = z.object({
  bundle,
  path,
  content: z.string().describe('The whole document in markdown, optionally starting with YAML frontmatter between --- lines. Link documents with [label](other.md) in the same bundle or [[bundle/slug]] across bundles.'),
  reason,
});
const listInput = z.object({ bundle: bundle.optional().describe('Only this bundle (all bundles when left out).') });
const documentInput = z.object({ bundle, path });
const graphInput = z.object({ bundle: bundle.optional().describe('Only links from this bundle (the whole memory when left out).') });
const deleteInput = z.object({
  bundle,
  path,
  reason,
  erase: z.boolean().optional().describe('Also erase every earlier version, so nothing of it is kept (when the user asks you to forget it). Cannot be undone.'),
});
const historyInput = z.object({
  bundle,
  path,
  revision: z.number().int().min(1).optional().describe('Show this revision in full, with its diff.'),
  limit: z.number().int().min(1).max(100).optional().describe('Most revisions to list (default 20).'),
});

const HISTORY_LIMIT = 20;

function withProblems(text: string, problems: readonly string[]): string {
  if (problems.length === 0) return text;
  return `${text}\n\nNote: some files could not be indexed:\n${problems.map((problem) => `- ${problem}`).join('\n')}`;
}

function linkLine(link: FollowedLink, direction: 'to' | 'from'): string {
  const missing = link.exists ? '' : ' (does not exist yet)';
  return `- ${direction} ${formatAddress(link.document)}${missing}, line ${link.line}: "${link.label}"`;
}

function lineRange(content: string, from: number | undefined, to: number | undefined): { text: string; span: string } {
  if (from === undefined && to === undefined) return { text: content, span: '' };
  const lines = content.split('\n');
  const first = from ?? 1;
  const last = Math.min(to ?? lines.length, lines.length);
  if (first > last) throw new Error(`lines ${first}-${to ?? lines.length} are outside the document, which has ${lines.length} lines`);
  return { text: lines.slice(first - 1, last).join('\n'), span: ` lines ${first}-${last} of ${lines.length}` };
}

function isoTime(at: number): string {
  return new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function createDocumentTools(documents: Documents, { silo, actor }: DocumentToolsOptions): AnyTool[] {
  assertSilo(silo);
  const author = (ctx: ToolContext): string => actor ?? `agent:${ctx.agent}`;
  const changed = (verb: string, target: DocumentAddress, revision: number | undefined): string =>
    revision === undefined ? `${formatAddress(target)} already had this content; nothing changed.` : `${verb} ${formatAddress(target)} (revision ${revision}).`;

  return [
    defineTool({
      name: 'memory_search',
      description: 'Searches your document memory and returns the most relevant passages, each with its bundle, path, line span and score. Returns nothing when nothing is relevant.',
      inputSchema: searchInput,
      async execute({ query, bundle: only, limit }) {
        const { hits, problems } = await documents.search(silo, query, { bundle: only, limit });
        if (hits.length === 0) {
          return withProblems(`No passage in memory is relevant enough to ${JSON.stringify(query)}. Try other words, or memory_list to browse.`, problems);
        }
        const body = hits
          .map((hit, i) => `[${i + 1}] ${hit.bundle}/${hit.path} lines ${hit.startLine}-${hit.endLine} (score ${hit.score}) — ${hit.title}\n${hit.text}`)
          .join('\n\n');
        return withProblems(`${hits.length} passage(s) for ${JSON.stringify(query)}:\n${asReferenceData('memory_search', body)}`, problems);
      },
    }),
    defineTool({
      name: 'memory_read',
      description: 'Reads a document from your memory, whole or a range of lines.',
      inputSchema: readInput,
      async execute({ bundle: b, path: p, from_line, to_line }) {
        const document = await documents.read(silo, b, p);
        const { text, span } = lineRange(document.content, from_line, to_line);
        const source = formatAddress(document);
        return withProblems(`${source}${span} — ${document.title}\n${asReferenceData(source, text)}`, document.problems);
      },
    }),
    defineTool({
      name: 'memory_write',
      description: 'Creates or replaces a markdown document in your memory. Every write is kept as a revision you can list and roll back.',
      inputSchema: writeInput,
      async execute({ bundle: b, path: p, content, reason: why }, ctx) {
        const result = await documents.write(silo, { bundle: b, path: p, content, actor: author(ctx), reason: why });
        return changed('Wrote', result, result.revision);
      },
    }),
    defineTool({
      name: 'memory_list',
      description: 'Lists the documents in your memory (of one bundle, or all), with their titles.',
      inputSchema: listInput,
      async execute({ bundle: only }) {
        const { documents: listed, problems } = await documents.list(silo, only);
        if (listed.length === 0) return withProblems(only === undefined ? 'Your document memory is empty.' : `Bundle '${only}' has no documents.`, problems);
        const body = listed.map((document) => `- ${formatAddress(document)} — ${document.title} (${document.bytes} bytes)`).join('\n');
        return withProblems(`${listed.length} document(s):\n${asReferenceData('memory_list', body)}`, problems);
      },
    }),
    defineTool({
      name: 'memory_follow',
      description: "Shows a document's links: the documents it links to, and the documents that link to it.",
      inputSchema: documentInput,
      async execute({ bundle: b, path: p }) {
        const result = await documents.follow(silo, b, p);
        const out = result.out.length === 0 ? ['- none'] : result.out.map((link) => linkLine(link, 'to'));
        const incoming = result.in.length === 0 ? ['- none'] : result.in.map((link) => linkLine(link, 'from'));
        return asReferenceData(formatAddress(result), [`Links out of ${formatAddress(result)}:`, ...out, 'Links into it:', ...incoming].join('\n'));
      },
    }),
    defineTool({
      name: 'memory_graph',
      description: 'Shows how the documents in your memory link to each other (of one bundle, or all).',
      inputSchema: graphInput,
      async execute({ bundle: only }) {
        const { nodes, edges } = await documents.graph(silo, only);
        if (nodes.length === 0) return only === undefined ? 'Your document memory is empty.' : `Bundle '${only}' has no documents.`;
        const nodeLines = nodes.map((node) => `- ${formatAddress(node)}${node.title === undefined ? ' (does not exist yet)' : ` — ${node.title}`}`);
        const edgeLines = edges.length === 0 ? ['- none'] : edges.map((edge) => `- ${edge.from} -> ${edge.to} "${edge.label}"`);
        return asReferenceData('memory_graph', [`Documents (${nodes.length}):`, ...nodeLines, `Links (${edges.length}):`, ...edgeLines].join('\n'));
      },
    }),
    defineTool({
      name: 'memory_delete',
      description: 'Deletes a document from your memory. The deletion is kept as a revision, so it can be rolled back, unless you erase it.',
      inputSchema: deleteInput,
      async execute({ bundle: b, path: p, reason: why, erase }, ctx) {
        const result = await documents.delete(silo, { bundle: b, path: p, actor: author(ctx), reason: why, erase });
        return changed('Deleted', result, result.revision);
      },
    }),
    defineTool({
      name: 'memory_history',
      description: "Lists a document's revisions (who, when, why, lines added and removed), or shows one revision with its diff.",
      inputSchema: historyInput,
      async execute({ bundle: b, path: p, revision, limit }) {
        if (revision !== undefined) {
          const record = await documents.revision(silo, revision);
          const header = `Revision ${record.id} of ${formatAddress(record)}: ${record.action} by ${record.actor} at ${isoTime(record.at)} — ${record.reason}`;
          return asReferenceData(`revision ${record.id}`, `${header}\n${record.diff || '(no textual change)'}`);
        }
        const revisions = await documents.history(silo, b, p, limit ?? HISTORY_LIMIT);
        if (revisions.length === 0) return `${b}/${p} has no revisions.`;
        const lines = revisions.map(
          (r) => `- revision ${r.id}: ${r.action} by ${r.actor} at ${isoTime(r.at)} (+${r.added} -${r.removed}) — ${r.reason}`,
        );
        return asReferenceData(`history of ${b}/${p}`, lines.join('\n'));
      },
    }),
  ];
}
