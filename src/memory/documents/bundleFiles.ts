import type { RevisionAction } from '../../store/documents.js';
import type { DocumentsContext } from './context.js';
import { INDEX_PATH, LOG_PATH } from './paths.js';

// Every bundle keeps an index.md (its documents, rewritten on each change) and a log.md (one line
// per change, appended), so a person browsing the folder sees what is there and what happened.

export interface LogEntry {
  at: number;
  action: RevisionAction;
  path: string;
  actor: string;
  reason: string;
  revision: number;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function markdownTarget(path: string): string {
  return encodeURI(path);
}

function logLine(entry: LogEntry): string {
  const when = new Date(entry.at).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const target = entry.action === 'delete' ? `\`${entry.path}\`` : `[${entry.path}](${markdownTarget(entry.path)})`;
  return `- ${when} · ${entry.action} ${target} · ${oneLine(entry.actor)} · ${oneLine(entry.reason) || 'no reason given'} (revision ${entry.revision})`;
}

async function renderIndex(ctx: DocumentsContext, silo: string, bundle: string): Promise<string> {
  const documents = await ctx.storage.listDocuments(silo, bundle);
  const entries = documents.map((document) => `- [${oneLine(document.title).replace(/[[\]]/g, '\\$&')}](${markdownTarget(document.path)})`);
  return [
    `# ${bundle}`,
    '',
    'Maintained by Syndicate: rewritten whenever a document of this bundle is written or deleted.',
    '',
    ...(entries.length === 0 ? ['No documents.'] : entries),
    '',
  ].join('\n');
}

/** Rewrites the bundle's index.md and appends the entries to its log.md. */
export async function updateBundleFiles(ctx: DocumentsContext, silo: string, bundle: string, entries: readonly LogEntry[]): Promise<void> {
  await ctx.content.write(silo, { bundle, path: INDEX_PATH }, await renderIndex(ctx, silo, bundle));
  if (entries.length === 0) return;
  const log = await ctx.content.read(silo, { bundle, path: LOG_PATH });
  const head = log ?? `# Log of ${bundle}\n\nEvery write and delete, oldest first. \`memory_history\` shows the diffs.\n\n`;
  await ctx.content.write(silo, { bundle, path: LOG_PATH }, `${head}${entries.map(logLine).join('\n')}\n`);
}
