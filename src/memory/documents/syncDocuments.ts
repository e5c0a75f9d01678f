import type { DocumentAddress, IndexedDocument, RevisionInput } from '../../store/documents.js';
import { updateBundleFiles, type LogEntry } from './bundleFiles.js';
import type { DocumentsContext } from './context.js';
import { unifiedDiff } from './diff.js';
import { DocumentError } from './errors.js';
import { embedDocuments, prepareDocument } from './prepareDocument.js';
import { documentPathProblem, formatAddress, isBundleName, isReservedPath } from './paths.js';

// Brings the index in line with the content store: a file edited, added or deleted outside
// Syndicate (in an editor, by git) is noticed by its content hash and re-indexed, with a revision
// that records the change. Runs before documents are read, listed, followed or searched.

/** Who a change made outside Syndicate is recorded as. */
const OUTSIDE_ACTOR = 'outside syndicate';

export interface SyncReport {
  /** Documents (re-)indexed because their content changed outside Syndicate. */
  indexed: string[];
  /** Documents removed from the index because their content was deleted outside Syndicate. */
  removed: string[];
  /** Files that could not be indexed, each with why and what to do. */
  problems: string[];
}

async function lastContent(ctx: DocumentsContext, silo: string, address: DocumentAddress): Promise<string> {
  const [last] = await ctx.storage.listRevisions(silo, address, 1);
  return last?.content ?? '';
}

function outsideRevision(ctx: DocumentsContext, action: RevisionInput['action'], diff: string, content: string | null): RevisionInput {
  const reason = action === 'write' ? 'changed outside Syndicate' : 'deleted outside Syndicate';
  return { action, actor: OUTSIDE_ACTOR, reason, at: ctx.now(), diff, content };
}

type Outcome = { change: LogEntry } | { problem: string } | undefined;

async function syncOne(ctx: DocumentsContext, silo: string, address: DocumentAddress, indexed: IndexedDocument | undefined): Promise<Outcome> {
  const hash = await ctx.content.hash(silo, address);
  if (indexed !== undefined && indexed.contentHash === hash) return undefined;
  const content = hash === undefined ? undefined : await ctx.content.read(silo, address);
  if (content === undefined) {
    if (indexed === undefined) return undefined;
    const revision = outsideRevision(ctx, 'delete', unifiedDiff(address.path, await lastContent(ctx, silo, address), ''), null);
    const id = await ctx.storage.removeDocument(silo, address, revision);
    return { change: { ...revision, path: address.path, revision: id! } };
  }
  let prepared;
  try {
    prepared = prepareDocument(address, content);
  } catch (error) {
    if (!(error instanceof DocumentError)) throw error;
    return { problem: `${error.message} (the file is not indexed until this is fixed)` };
  }
  const [update] = await embedDocuments([prepared], ctx.embedder, ctx.now());
  const revision = outsideRevision(ctx, 'write', unifiedDiff(address.path, await lastContent(ctx, silo, address), content), content);
  const id = await ctx.storage.commitDocument(silo, update!, revision);
  return { change: { ...revision, path: address.path, revision: id! } };
}

/** Syncs one document of many: a document the content store refuses (a symbolic link out of the silo) is one problem, not the end of the sync. */
async function syncOneOf(ctx: DocumentsContext, silo: string, address: DocumentAddress, indexed: IndexedDocument | undefined): Promise<Outcome> {
  try {
    return await syncOne(ctx, silo, address, indexed);
  } catch (error) {
    if (!(error instanceof DocumentError)) throw error;
    return { problem: error.message };
  }
}

function record(report: SyncReport, changes: Map<string, LogEntry[]>, address: DocumentAddress, outcome: Outcome): void {
  if (outcome === undefined) return;
  if ('problem' in outcome) {
    report.problems.push(outcome.problem);
    return;
  }
  (outcome.change.action === 'write' ? report.indexed : report.removed).push(formatAddress(address));
  changes.set(address.bundle, [...(changes.get(address.bundle) ?? []), outcome.change]);
}

async function finish(ctx: DocumentsContext, silo: string, report: SyncReport, changes: Map<string, LogEntry[]>): Promise<SyncReport> {
  for (const [bundle, entries] of changes) await updateBundleFiles(ctx, silo, bundle, entries);
  return report;
}

/** Syncs one document (read, write and delete do this first, so an outside edit gets its own revision). */
export async function syncDocument(ctx: DocumentsContext, silo: string, address: DocumentAddress): Promise<SyncReport> {
  const report: SyncReport = { indexed: [], removed: [], problems: [] };
  // Database content changes only through Syndicate, which indexes as it writes.
  if (ctx.content.kind === 'database') return report;
  const changes = new Map<string, LogEntry[]>();
  record(report, changes, address, await syncOne(ctx, silo, address, await ctx.storage.getDocument(silo, address)));
  return finish(ctx, silo, report, changes);
}

/** Syncs every document of the bundle (of the silo without one). */
export async function syncDocuments(ctx: DocumentsContext, silo: string, bundle?: string): Promise<SyncReport> {
  const report: SyncReport = { indexed: [], removed: [], problems: [] };
  if (ctx.content.kind === 'database') return report;
  const changes = new Map<string, LogEntry[]>();
  const indexed = new Map((await ctx.storage.listDocuments(silo, bundle)).map((document) => [formatAddress(document), document]));
  for (const address of await ctx.content.list(silo, bundle)) {
    if (!isBundleName(address.bundle)) {
      report.problems.push(`folder '${address.bundle}' is not a valid bundle name, so its files are not indexed: rename it (lowercase letters, digits, '_' or '-')`);
      continue;
    }
    if (isReservedPath(address.path)) continue;
    const problem = documentPathProblem(address.path);
    if (problem !== undefined) {
      report.problems.push(`${formatAddress(address)} is not indexed: ${problem}; rename the file`);
      continue;
    }
    const key = formatAddress(address);
    record(report, changes, address, await syncOneOf(ctx, silo, address, indexed.get(key)));
    indexed.delete(key);
  }
  // Indexed documents whose content is gone were deleted outside Syndicate.
  for (const document of indexed.values()) {
    const address = { bundle: document.bundle, path: document.path };
    record(report, changes, address, await syncOneOf(ctx, silo, address, document));
  }
  return finish(ctx, silo, report, changes);
}

/** Re-embeds every indexed document with the context's embedder (after the embedding model changed). */
export async function reembedDocuments(ctx: DocumentsContext, silo: string): Promise<number> {
  await syncDocuments(ctx, silo);
  let count = 0;
  for (const { bundle, path } of await ctx.storage.listDocuments(silo)) {
    const content = await ctx.content.read(silo, { bundle, path });
    // Synced just above: only a delete made since then leaves no content, and the next sync records it.
    if (content === undefined) continue;
    const [update] = await embedDocuments([prepareDocument({ bundle, path }, content)], ctx.embedder, ctx.now());
    await ctx.storage.commitDocument(silo, update!);
    count++;
  }
  return count;
}
