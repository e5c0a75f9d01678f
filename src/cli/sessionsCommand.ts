import type { SessionRecord } from '../store/store.js';
import { createJsonPrinter, createTracePrinter } from './eventPrinter.js';
import { ExitCode } from './exitCodes.js';
import type { PruneSessionsOptions, SessionsOptions } from './options.js';
import { withExistingStore } from './openPlatform.js';
import { colourEnabled, createStyle } from './terminal.js';
import { formatTable, formatTime } from './text.js';
import { parseSince } from '../telemetry/ledger/since.js';
import { UsageError } from './usageError.js';

const write = (text: string): void => void process.stdout.write(text);

function sessionTable(sessions: readonly SessionRecord[]): string {
  return formatTable([['SESSION', 'SYNDICATE', 'EVENTS', 'UPDATED'], ...sessions.map((s) => [s.id, s.syndicate, String(s.eventCount), formatTime(s.updatedAt)])]);
}

function notFound(id: string, storeName: string): number {
  process.stderr.write(`No session ${id} in ${storeName}. See: syndicate sessions list\n`);
  return ExitCode.failed;
}

export function listSessions(options: SessionsOptions): Promise<number> {
  return withExistingStore(options.db, async (store, storeName) => {
    const sessions = (await store?.listSessions()) ?? [];
    if (options.json) write(`${JSON.stringify(sessions)}\n`);
    else if (sessions.length === 0) write(`No sessions in ${storeName}.\n`);
    else write(`${sessionTable(sessions)}\n`);
    return ExitCode.ok;
  });
}

/** A readable transcript (or the stored events as NDJSON with --json). */
export function showSession(id: string, options: SessionsOptions): Promise<number> {
  return withExistingStore(options.db, async (store, storeName) => {
    const session = await store?.getSession(id);
    if (!store || !session) return notFound(id, storeName);
    const style = createStyle(!options.json && colourEnabled(process.stdout, process.env));
    const printer = options.json ? createJsonPrinter(write) : createTracePrinter(write, style, 'transcript');
    if (!options.json) write(`${style.bold(session.syndicate)} · session ${session.id}\n`);
    for (const stored of await store.readEvents(id)) printer.print(stored.event);
    return ExitCode.ok;
  });
}

export function deleteSession(id: string, options: SessionsOptions): Promise<number> {
  return withExistingStore(options.db, async (store, storeName) => {
    if (!store || !(await store.deleteSession(id))) return notFound(id, storeName);
    write(`Deleted session ${id}.\n`);
    return ExitCode.ok;
  });
}

/** The cutoff of --older-than: a duration back from now, or a day or time to cut at. */
function cutoffOf(olderThan: string): number {
  try {
    return parseSince(olderThan, Date.now());
  } catch {
    throw new UsageError(`cannot read --older-than '${olderThan}': use a duration (90d, 12w, 24h, 30m), a day 2026-11-01 or an ISO time 2026-11-01T09:00Z`);
  }
}

export function pruneSessions(options: PruneSessionsOptions): Promise<number> {
  const before = cutoffOf(options.olderThan);
  return withExistingStore(options.db, async (store) => {
    const pruned = (await store?.pruneSessions(before)) ?? 0;
    if (options.json) write(`${JSON.stringify({ pruned, before })}\n`);
    else write(`Deleted ${pruned} session${pruned === 1 ? '' : 's'} not updated since ${formatTime(before)}.\n`);
    return ExitCode.ok;
  });
}
