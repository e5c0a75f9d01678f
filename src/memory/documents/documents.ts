import type { DocumentAddress, DocumentStorage, RevisionRecord } from '../../store/documents.js';
import type { Embedder } from '../embeddings/embedder.js';
import { assertSilo } from '../../core/silo.js';
import { exportBundle, importBundle, type ImportOptions, type ImportReport } from './bundleArchive.js';
import { updateBundleFiles } from './bundleFiles.js';
import type { DocumentContentStore } from './contentStore.js';
import type { DocumentsContext } from './context.js';
import { diffStat, unifiedDiff } from './diff.js';
import { DocumentError, DocumentNotFoundError } from './errors.js';
import { parseFrontmatter } from './frontmatter.js';
import { embedDocuments, prepareDocument } from './prepareDocument.js';
import { checkBundleName, checkDocumentPath, formatAddress, isReservedPath, withMarkdownExtension } from './paths.js';
import { createSiloQueue } from './siloQueue.js';
import { searchPassages, type SearchHit, type SearchOptions } from './searchDocuments.js';
import { reembedDocuments, syncDocument, syncDocuments, type SyncReport } from './syncDocuments.js';

// Markdown document bundles: the one entry point for tools, CLI and API. Every call names its silo
// and is refused without a valid one; content goes to the DocumentStore, the derived index and the
// revisions to the Store.

export interface DocumentsOptions {
  storage: DocumentStorage;
  content: DocumentContentStore;
  embedder: Embedder;
  now?: () => number;
}

export interface ChangeRequest {
  /** Who asks, recorded in the revision (e.g. 'agent:Chair', 'cli'). */
  actor: string;
  /** Why, recorded in the revision. */
  reason: string;
}

export interface WriteRequest extends ChangeRequest {
  bundle: string;
  path: string;
  content: string;
}

export interface DeleteRequest extends ChangeRequest {
  bundle: string;
  path: string;
  /**
   * Also erase the document's history, so no copy of its content is left (personal data that must
   * go). One revision records the erasure, without content; the delete cannot be rolled back.
   */
  erase?: boolean;
}

export interface RollbackRequest extends ChangeRequest {
  bundle: string;
  path: string;
  /** The revision whose content the document gets back (a delete revision deletes it). */
  revision: number;
}

export interface ChangeResult extends DocumentAddress {
  /** The revision recorded; undefined when the content was already the requested one. */
  revision: number | undefined;
}

export interface ReadResult extends DocumentAddress {
  title: string;
  frontmatter: Record<string, unknown>;
  content: string;
  /** Problems syncing this document (it changed outside Syndicate and cannot be indexed). */
  problems: string[];
}

export interface DocumentSummary extends DocumentAddress {
  title: string;
  bytes: number;
  indexedAt: number;
}

export interface ListResult {
  documents: DocumentSummary[];
  problems: string[];
}

export interface SearchResult {
  hits: SearchHit[];
  problems: string[];
}

export interface FollowedLink {
  /** The other end: the target for links out, the source for links in. */
  document: DocumentAddress;
  label: string;
  /** Line of the link in its source document. */
  line: number;
  /** Whether the other end exists (a link may point at a document not written yet). */
  exists: boolean;
}

export interface FollowResult extends DocumentAddress {
  out: FollowedLink[];
  in: FollowedLink[];
}

export interface GraphNode extends DocumentAddress {
  /** undefined for a link target that does not exist. */
  title: string | undefined;
}

export interface GraphEdge {
  from: string;
  to: string;
  label: string;
}

export interface GraphResult {
  /** Keyed 'bundle/path' in edges. */
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export interface RevisionSummary extends DocumentAddress {
  id: number;
  action: RevisionRecord['action'];
  actor: string;
  reason: string;
  at: number;
  added: number;
  removed: number;
}

export interface Documents {
  write(silo: string, request: WriteRequest): Promise<ChangeResult>;
  read(silo: string, bundle: string, path: string): Promise<ReadResult>;
  delete(silo: string, request: DeleteRequest): Promise<ChangeResult>;
  list(silo: string, bundle?: string): Promise<ListResult>;
  search(silo: string, query: string, options?: SearchOptions): Promise<SearchResult>;
  follow(silo: string, bundle: string, path: string): Promise<FollowResult>;
  graph(silo: string, bundle?: string): Promise<GraphResult>;
  history(silo: string, bundle: string, path: string, limit?: number): Promise<RevisionSummary[]>;
  /** One revision with its diff and content. */
  revision(silo: string, id: number): Promise<RevisionRecord>;
  /** Unified diff between the contents after two revisions of the same document. */
  diff(silo: string, fromRevision: number, toRevision: number): Promise<string>;
  rollback(silo: string, request: RollbackRequest): Promise<ChangeResult>;
  /** Re-indexes what changed outside Syndicate (read, list, follow, graph and search do this themselves). */
  sync(silo: string, bundle?: string): Promise<SyncReport>;
  /** Re-embeds every document of the silo with this embedder; resolves to how many. */
  reembed(silo: string): Promise<number>;
  exportBundle(silo: string, bundle: string): Promise<Uint8Array>;
  importBundle(silo: string, archive: Uint8Array, options: ImportOptions): Promise<ImportReport>;
  /** Deletes every document, index row, link and revision of the silo. */
  purge(silo: string): Promise<void>;
}

function summary(revision: RevisionRecord): RevisionSummary {
  const { id, bundle, path, action, actor, reason, at } = revision;
  return { id, bundle, path, action, actor, reason, at, ...diffStat(revision.diff) };
}

export function createDocuments(options: DocumentsOptions): Documents {
  const ctx: DocumentsContext = {
    storage: options.storage,
    content: options.content,
    embedder: options.embedder,
    now: options.now ?? Date.now,
  };

  const serial = createSiloQueue();

  const address = (bundle: string, path: string): DocumentAddress => ({ bundle: checkBundleName(bundle), path: checkDocumentPath(bundle, path) });

  async function write(silo: string, { bundle, path, content, actor, reason }: WriteRequest): Promise<ChangeResult> {
    const target = address(bundle, path);
    const prepared = prepareDocument(target, content);
    await syncDocument(ctx, silo, target);
    const previous = await ctx.content.read(silo, target);
    if (previous === content) return { ...target, revision: undefined };
    // Embedded before anything is stored: an embedder failure leaves the document as it was.
    const [update] = await embedDocuments([prepared], ctx.embedder, ctx.now());
    await ctx.content.write(silo, target, content);
    const revision = { action: 'write' as const, actor, reason, at: ctx.now(), diff: unifiedDiff(target.path, previous ?? '', content), content };
    const id = await ctx.storage.commitDocument(silo, update!, revision);
    await updateBundleFiles(ctx, silo, target.bundle, [{ ...revision, path: target.path, revision: id! }]);
    return { ...target, revision: id };
  }

  async function remove(silo: string, { bundle, path, actor, reason, erase = false }: DeleteRequest): Promise<ChangeResult> {
    const target = address(bundle, path);
    await syncDocument(ctx, silo, target);
    const previous = await ctx.content.read(silo, target);
    if (previous === undefined) throw new DocumentNotFoundError(`there is no document ${formatAddress(target)} to delete`);
    await ctx.content.remove(silo, target);
    const diff = erase ? '' : unifiedDiff(target.path, previous, '');
    const revision = { action: 'delete' as const, actor, reason: erase ? `erased with its history: ${reason}` : reason, at: ctx.now(), diff, content: null };
    const id = await ctx.storage.removeDocument(silo, target, revision, erase);
    await updateBundleFiles(ctx, silo, target.bundle, [{ ...revision, path: target.path, revision: id! }]);
    return { ...target, revision: id };
  }

  async function revision(silo: string, id: number): Promise<RevisionRecord> {
    assertSilo(silo);
    const record = await ctx.storage.getRevision(silo, id);
    if (record === undefined) throw new DocumentNotFoundError(`there is no revision ${id} in this memory; memory_history lists a document's revisions`);
    return record;
  }

  return {
    write: async (silo, request) => {
      assertSilo(silo);
      return serial(silo, () => write(silo, request));
    },
    delete: async (silo, request) => {
      assertSilo(silo);
      return serial(silo, () => remove(silo, request));
    },
    revision,

    async read(silo, bundle, path) {
      assertSilo(silo);
      return serial(silo, async () => {
        checkBundleName(bundle);
        const normalised = withMarkdownExtension(path);
        // index.md and log.md can be read, never written.
        const target = isReservedPath(normalised) ? { bundle, path: normalised } : address(bundle, path);
        const { problems } = isReservedPath(normalised) ? { problems: [] } : await syncDocument(ctx, silo, target);
        const content = await ctx.content.read(silo, target);
        if (content === undefined) {
          throw new DocumentNotFoundError(`there is no document ${formatAddress(target)}; memory_list shows the documents of a bundle`);
        }
        const indexed = await ctx.storage.getDocument(silo, target);
        let frontmatter: Record<string, unknown> = {};
        if (problems.length === 0) frontmatter = parseFrontmatter(formatAddress(target), content).frontmatter;
        return { ...target, title: indexed?.title ?? target.path, frontmatter, content, problems };
      });

    },

    async list(silo, bundle) {
      assertSilo(silo);
      return serial(silo, async () => {
        if (bundle !== undefined) checkBundleName(bundle);
        const { problems } = await syncDocuments(ctx, silo, bundle);
        const documents = (await ctx.storage.listDocuments(silo, bundle)).map(
          ({ bundle: b, path, title, bytes, indexedAt }): DocumentSummary => ({ bundle: b, path, title, bytes, indexedAt }),
        );
        return { documents, problems };
      });

    },

    async search(silo, query, searchOptions = {}) {
      assertSilo(silo);
      return serial(silo, async () => {
        if (searchOptions.bundle !== undefined) checkBundleName(searchOptions.bundle);
        const { problems } = await syncDocuments(ctx, silo, searchOptions.bundle);
        return { hits: await searchPassages(ctx, silo, query, searchOptions), problems };
      });

    },

    async follow(silo, bundle, path) {
      assertSilo(silo);
      return serial(silo, async () => {
        const target = address(bundle, path);
        await syncDocuments(ctx, silo);
        if ((await ctx.storage.getDocument(silo, target)) === undefined) {
          throw new DocumentNotFoundError(`there is no document ${formatAddress(target)}; memory_list shows the documents of a bundle`);
        }
        const exists = async (other: DocumentAddress): Promise<boolean> => (await ctx.storage.getDocument(silo, other)) !== undefined;
        const out: FollowedLink[] = [];
        for (const link of await ctx.storage.linksFrom(silo, target)) {
          out.push({ document: link.to, label: link.label, line: link.line, exists: await exists(link.to) });
        }
        const incoming = (await ctx.storage.linksTo(silo, target)).map((link) => ({ document: link.from, label: link.label, line: link.line, exists: true }));
        return { ...target, out, in: incoming };
      });

    },

    async graph(silo, bundle) {
      assertSilo(silo);
      return serial(silo, async () => {
        if (bundle !== undefined) checkBundleName(bundle);
        await syncDocuments(ctx, silo);
        const nodes = new Map<string, GraphNode>();
        for (const document of await ctx.storage.listDocuments(silo, bundle)) {
          nodes.set(formatAddress(document), { bundle: document.bundle, path: document.path, title: document.title });
        }
        const edges = new Map<string, GraphEdge>();
        for (const link of await ctx.storage.listLinks(silo, bundle)) {
          const from = formatAddress(link.from);
          const to = formatAddress(link.to);
          if (!nodes.has(to)) {
            const indexed = await ctx.storage.getDocument(silo, link.to);
            nodes.set(to, { ...link.to, title: indexed?.title });
          }
          // One edge per pair of documents: the first link's label names it.
          if (!edges.has(`${from} ${to}`)) edges.set(`${from} ${to}`, { from, to, label: link.label });
        }
        return { nodes: [...nodes.values()], edges: [...edges.values()] };
      });

    },

    async history(silo, bundle, path, limit) {
      assertSilo(silo);
      return serial(silo, async () => {
        const target = address(bundle, path);
        // An edit made outside Syndicate since the last sync gets its revision first.
        await syncDocument(ctx, silo, target);
        return (await ctx.storage.listRevisions(silo, target, limit)).map(summary);
      });
    },

    async diff(silo, fromRevision, toRevision) {
      const from = await revision(silo, fromRevision);
      const to = await revision(silo, toRevision);
      if (formatAddress(from) !== formatAddress(to)) {
        throw new DocumentError(`revisions ${fromRevision} (${formatAddress(from)}) and ${toRevision} (${formatAddress(to)}) are of different documents`);
      }
      return unifiedDiff(to.path, from.content ?? '', to.content ?? '');
    },

    async rollback(silo, { bundle, path, revision: id, actor, reason }) {
      assertSilo(silo);
      return serial(silo, async () => {
        const target = address(bundle, path);
        const record = await revision(silo, id);
        if (formatAddress(record) !== formatAddress(target)) {
          throw new DocumentError(`revision ${id} is of ${formatAddress(record)}, not ${formatAddress(target)}`);
        }
        const why = `rollback to revision ${id}: ${reason}`;
        if (record.content === null) return remove(silo, { ...target, actor, reason: why });
        return write(silo, { ...target, content: record.content, actor, reason: why });
      });

    },

    async sync(silo, bundle) {
      assertSilo(silo);
      return serial(silo, async () => {
        if (bundle !== undefined) checkBundleName(bundle);
        return syncDocuments(ctx, silo, bundle);
      });

    },

    async reembed(silo) {
      assertSilo(silo);
      return serial(silo, async () => {
        return reembedDocuments(ctx, silo);
      });

    },

    async exportBundle(silo, bundle) {
      assertSilo(silo);
      return serial(silo, async () => {
        checkBundleName(bundle);
        const { problems } = await syncDocuments(ctx, silo, bundle);
        if (problems.length > 0) throw new DocumentError(`bundle '${bundle}' has files that cannot be indexed; fix them before exporting:\n${problems.join('\n')}`);
        return exportBundle(ctx, silo, bundle);
      });

    },

    async importBundle(silo, archive, importOptions) {
      assertSilo(silo);
      return serial(silo, async () => {
        return importBundle(ctx, silo, archive, importOptions);
      });

    },

    async purge(silo) {
      assertSilo(silo);
      return serial(silo, async () => {
        await ctx.content.purge(silo);
        await ctx.storage.purgeSilo(silo);
      });

    },
  };
}
