import { strToU8, unzipSync, zipSync, type Unzipped } from 'fflate';
import { updateBundleFiles, type LogEntry } from './bundleFiles.js';
import type { DocumentsContext } from './context.js';
import { unifiedDiff } from './diff.js';
import { DocumentError } from './errors.js';
import { formatBytes, MAX_DOCUMENT_BYTES, MAX_IMPORT_BYTES } from './limits.js';
import { checkBundleName, documentPathProblem, isBundleName, isReservedPath } from './paths.js';
import { embedDocuments, prepareDocument, type PreparedDocument } from './prepareDocument.js';
import { syncDocuments } from './syncDocuments.js';

// A bundle as a zip archive: every file under one folder named after the bundle
// (notes/index.md, notes/plan.md, notes/people/ada.md). Import checks every entry and every
// collision before it stores anything: a bad entry means nothing is imported.

export interface ImportOptions {
  actor: string;
  reason: string;
  /** Import into this bundle instead of the one the archive's folder names. */
  bundle?: string;
  /** Replace documents whose content differs from the archive's (collisions); without it, collisions refuse the import. */
  overwrite?: boolean;
  /** Check and report, store nothing. */
  dryRun?: boolean;
}

export interface ImportReport {
  /** The bundle imported into (undefined when the archive names none). */
  bundle: string | undefined;
  /** Whether the import went ahead (false when it was refused or a dry run). */
  imported: boolean;
  /** Paths new to the bundle. */
  added: string[];
  /** Paths that existed with other content: collisions, replaced only with `overwrite`. */
  collisions: string[];
  /** Paths that exist with the same content. */
  unchanged: string[];
  /** Entries ignored: index.md and log.md, which the bundle maintains itself. */
  skipped: string[];
  /** Entries that cannot be imported, each with why. Any problem means nothing is imported. */
  problems: string[];
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export async function exportBundle(ctx: DocumentsContext, silo: string, bundle: string): Promise<Uint8Array> {
  const files: Record<string, Uint8Array> = {};
  for (const address of await ctx.content.list(silo, bundle)) {
    const content = await ctx.content.read(silo, address);
    if (content !== undefined) files[`${bundle}/${address.path}`] = strToU8(content);
  }
  if (Object.keys(files).length === 0) throw new DocumentError(`bundle '${bundle}' has no documents to export`);
  return zipSync(files, { level: 6, mtime: ctx.now() });
}

function readArchive(archive: Uint8Array, problems: string[]): Unzipped {
  const seen = new Set<string>();
  let declared = 0;
  try {
    return unzipSync(archive, {
      filter(entry) {
        if (entry.name.endsWith('/')) return false;
        if (seen.has(entry.name)) problems.push(`${entry.name}: appears more than once in the archive`);
        seen.add(entry.name);
        declared += entry.originalSize;
        if (entry.originalSize > MAX_DOCUMENT_BYTES) {
          problems.push(`${entry.name}: is ${formatBytes(entry.originalSize)}, over the ${formatBytes(MAX_DOCUMENT_BYTES)} limit for a document`);
          return false;
        }
        // Checked before inflating, so an archive that expands enormously is never expanded.
        return declared <= MAX_IMPORT_BYTES;
      },
    });
  } catch (error) {
    problems.push(`the archive cannot be read as a zip file: ${(error as Error).message}`);
    return {};
  } finally {
    if (declared > MAX_IMPORT_BYTES) problems.push(`the archive expands to ${formatBytes(declared)}, over the ${formatBytes(MAX_IMPORT_BYTES)} import limit`);
  }
}

interface Entries {
  folder: string | undefined;
  documents: Array<{ folder: string; path: string; content: string; entry: string }>;
  skipped: string[];
}

function readEntries(files: Unzipped, problems: string[]): Entries {
  const folders = new Set<string>();
  const result: Entries = { folder: undefined, documents: [], skipped: [] };
  for (const [entry, bytes] of Object.entries(files)) {
    const slash = entry.indexOf('/');
    if (slash <= 0) {
      problems.push(`${entry}: entries must sit in a folder named after the bundle (e.g. notes/plan.md)`);
      continue;
    }
    const folder = entry.slice(0, slash);
    const path = entry.slice(slash + 1);
    folders.add(folder);
    if (!isBundleName(folder)) {
      problems.push(`${entry}: folder '${folder}' is not a bundle name (lowercase letters, digits, '_' or '-')`);
      continue;
    }
    if (isReservedPath(path)) {
      result.skipped.push(path);
      continue;
    }
    const problem = path.endsWith('.md') ? documentPathProblem(path) : "only markdown documents ('.md') can be imported";
    if (problem !== undefined) {
      problems.push(`${entry}: ${problem}`);
      continue;
    }
    if (bytes.length > MAX_DOCUMENT_BYTES) {
      problems.push(`${entry}: is ${formatBytes(bytes.length)}, over the ${formatBytes(MAX_DOCUMENT_BYTES)} limit for a document`);
      continue;
    }
    let content: string;
    try {
      content = utf8.decode(bytes);
    } catch {
      problems.push(`${entry}: is not UTF-8 text`);
      continue;
    }
    result.documents.push({ folder, path, content, entry });
  }
  if (folders.size > 1) problems.push(`the archive holds several bundles (${[...folders].sort().join(', ')}); import one bundle at a time`);
  result.folder = folders.size === 1 ? [...folders][0] : undefined;
  return result;
}

export async function importBundle(ctx: DocumentsContext, silo: string, archive: Uint8Array, options: ImportOptions): Promise<ImportReport> {
  const problems: string[] = [];
  const entries = readEntries(readArchive(archive, problems), problems);
  const bundle = options.bundle === undefined ? entries.folder : checkBundleName(options.bundle);
  const report: ImportReport = { bundle, imported: false, added: [], collisions: [], unchanged: [], skipped: entries.skipped, problems };
  const prepared: PreparedDocument[] = [];
  for (const { folder, path, content, entry } of entries.documents) {
    try {
      prepared.push(prepareDocument({ bundle: bundle ?? folder, path }, content, entry));
    } catch (error) {
      if (!(error instanceof DocumentError)) throw error;
      problems.push(error.message);
    }
  }
  if (bundle === undefined && problems.length === 0) problems.push('the archive holds no documents');
  if (bundle === undefined || problems.length > 0) return report;

  await syncDocuments(ctx, silo, bundle);
  const previous = new Map<string, string | undefined>();
  for (const document of prepared) {
    const existing = await ctx.content.read(silo, document);
    previous.set(document.path, existing);
    if (existing === undefined) report.added.push(document.path);
    else if (existing === document.content) report.unchanged.push(document.path);
    else report.collisions.push(document.path);
  }
  if (options.dryRun === true || (report.collisions.length > 0 && options.overwrite !== true)) return report;

  const toWrite = prepared.filter((document) => previous.get(document.path) !== document.content);
  // Embedded before anything is stored: an embedder failure imports nothing.
  const updates = await embedDocuments(toWrite, ctx.embedder, ctx.now());
  const log: LogEntry[] = [];
  for (const [index, document] of toWrite.entries()) {
    await ctx.content.write(silo, document, document.content);
    const revision = {
      action: 'write' as const, actor: options.actor, reason: options.reason, at: ctx.now(),
      diff: unifiedDiff(document.path, previous.get(document.path) ?? '', document.content), content: document.content,
    };
    const id = await ctx.storage.commitDocument(silo, updates[index]!, revision);
    log.push({ ...revision, path: document.path, revision: id! });
  }
  if (log.length > 0) await updateBundleFiles(ctx, silo, bundle, log);
  report.imported = true;
  return report;
}
