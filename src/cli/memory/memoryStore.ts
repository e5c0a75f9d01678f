import { assertSilo } from '../../core/silo.js';
import type { Store } from '../../store/store.js';
import { ExitCode } from '../exitCodes.js';
import type { MemoryOptions } from '../options.js';
import { dbPathFor, openExistingStore, openSessionStore } from '../sessionStore.js';
import { UsageError } from '../usageError.js';

// Opening the store for `syndicate memory` and finding what a silo holds.

export interface SiloContents {
  silo: string;
  facts: number;
  active: number;
  superseded: number;
  /** The model of the facts' vectors; undefined without facts. */
  factModel: string | undefined;
  documents: number;
  bundles: string[];
  /** The models of the documents' passage vectors. */
  documentModels: string[];
}

/** Throws a UsageError (exit 2) for a malformed silo id, before anything is opened. */
export function checkSilo(silo: string): string {
  try {
    assertSilo(silo);
  } catch {
    throw new UsageError(`--silo ${JSON.stringify(silo)} is not a silo id (1-129 letters, digits, '.', '_' or '-', e.g. council--local). See: syndicate memory silos`);
  }
  return silo;
}

/**
 * Runs `use` with the store at --db. Reading commands pass create=false: a missing database is
 * reported as empty rather than created as a side effect.
 */
export async function withMemoryStore<T>(
  options: MemoryOptions,
  create: boolean,
  use: (store: Store | undefined, dbPath: string) => Promise<T>,
): Promise<T> {
  const dbPath = dbPathFor(options.db, process.env);
  const store = create ? await openSessionStore(dbPath) : await openExistingStore(dbPath);
  try {
    return await use(store, dbPath);
  } finally {
    await store?.close();
  }
}

/** Every silo holding facts or documents, by id. */
export async function listSiloIds(store: Store): Promise<string[]> {
  const factSilos = (await store.facts.listSilos()).map((summary) => summary.silo);
  return [...new Set([...factSilos, ...(await store.documents.listSilos())])].sort();
}

/** What the silo holds, from the index (no sync with files edited outside Syndicate); undefined when it holds nothing. */
export async function siloContents(store: Store, silo: string): Promise<SiloContents | undefined> {
  const summary = (await store.facts.listSilos()).find((candidate) => candidate.silo === silo);
  const documents = await store.documents.listDocuments(silo);
  if (summary === undefined && documents.length === 0 && !(await store.documents.listSilos()).includes(silo)) return undefined;
  return {
    silo,
    facts: summary?.facts ?? 0,
    active: summary?.active ?? 0,
    superseded: (summary?.facts ?? 0) - (summary?.active ?? 0),
    factModel: summary?.embeddingModel,
    documents: documents.length,
    bundles: [...new Set(documents.map((document) => document.bundle))],
    documentModels: await store.documents.embeddingModels(silo),
  };
}

/** The embedding models the silo's vectors came from, facts' first. */
export function siloModels(contents: SiloContents): string[] {
  return [...new Set([...(contents.factModel === undefined ? [] : [contents.factModel]), ...contents.documentModels])];
}

export function siloNotFound(silo: string, dbPath: string): number {
  process.stderr.write(`No memory silo '${silo}' in ${dbPath}: it holds no facts and no documents. See: syndicate memory silos\n`);
  return ExitCode.failed;
}

/** Runs `use` with what the silo holds, or reports that the database has no such silo (exit 1). */
export function withSilo(
  options: MemoryOptions & { silo: string },
  use: (store: Store, contents: SiloContents, dbPath: string) => Promise<number>,
): Promise<number> {
  const silo = checkSilo(options.silo);
  return withMemoryStore(options, false, async (store, dbPath) => {
    const contents = store && (await siloContents(store, silo));
    return store && contents ? use(store, contents, dbPath) : siloNotFound(silo, dbPath);
  });
}
