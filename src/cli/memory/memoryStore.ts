import { assertSilo } from '../../core/silo.js';
import type { Platform } from '../../platform/createPlatform.js';
import type { Store } from '../../store/store.js';
import { ExitCode } from '../exitCodes.js';
import { openPlatform } from '../openPlatform.js';
import type { MemoryOptions } from '../options.js';
import { UsageError } from '../usageError.js';

// Opening the store for `syndicate memory` and finding what a silo holds.

/** Actor recorded in the revisions the CLI makes. */
export const CLI_ACTOR = 'cli';

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
 * Runs `use` with the store (--db, SYNDICATE_DB or the default) and the platform that opened it,
 * for its documents. Reading commands pass create=false: a missing store is reported as empty
 * rather than created as a side effect.
 */
export async function withMemoryStore<T>(
  options: MemoryOptions,
  create: boolean,
  use: (store: Store | undefined, platform: Platform) => Promise<T>,
): Promise<T> {
  const platform = await openPlatform(options.db);
  try {
    return await use(create ? await platform.store() : await platform.existingStore(), platform);
  } finally {
    await platform.close();
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

export function siloNotFound(silo: string, storeName: string): number {
  process.stderr.write(`No memory silo '${silo}' in ${storeName}: it holds no facts and no documents. See: syndicate memory silos\n`);
  return ExitCode.failed;
}

/** Runs `use` with what the silo holds, or reports that the database has no such silo (exit 1). */
export function withSilo(
  options: MemoryOptions & { silo: string },
  use: (store: Store, contents: SiloContents, platform: Platform) => Promise<number>,
): Promise<number> {
  const silo = checkSilo(options.silo);
  return withMemoryStore(options, false, async (store, platform) => {
    const contents = store && (await siloContents(store, silo));
    return store && contents ? use(store, contents, platform) : siloNotFound(silo, platform.storeName);
  });
}
