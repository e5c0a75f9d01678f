import type { Platform } from '../../platform/createPlatform.js';
import type { Store } from '../../store/store.js';
import { ExitCode } from '../exitCodes.js';
import type { MemoryListOptions } from '../options.js';
import { formatTime } from '../text.js';
import { siloEmbedder } from './embedders.js';
import { withSilo, type SiloContents } from './memoryStore.js';
import { FACT_HEADER, factRow, printJson, write } from './output.js';
import { formatTable } from '../text.js';

async function listFacts(store: Store, options: MemoryListOptions): Promise<number> {
  // The store filters by status; tags are few, so filtering them here keeps the store's API small.
  const all = await store.facts.listFacts(options.silo, { status: options.status, limit: options.tag === undefined ? options.limit : undefined });
  const facts = (options.tag === undefined ? all : all.filter((fact) => fact.tag === options.tag)).slice(0, options.limit);
  if (options.json) printJson(facts);
  else if (facts.length === 0) write(`No facts in silo ${options.silo} match.\n`);
  else write(`${formatTable([FACT_HEADER, ...facts.map(factRow)])}\n`);
  return ExitCode.ok;
}

async function listDocuments(platform: Platform, contents: SiloContents, options: MemoryListOptions): Promise<number> {
  const { documents, problems } = await (await platform.documents(siloEmbedder(contents))).list(options.silo);
  if (options.json) printJson({ documents, problems });
  else if (documents.length === 0) write(`No documents in silo ${options.silo}.\n`);
  else {
    const rows = documents.map((document) => [document.bundle, document.path, document.title, String(document.bytes), formatTime(document.indexedAt)]);
    write(`${formatTable([['BUNDLE', 'PATH', 'TITLE', 'BYTES', 'INDEXED'], ...rows])}\n`);
  }
  // Files that cannot be indexed are missing from the list: say which and why, so they get fixed.
  if (!options.json) for (const problem of problems) process.stderr.write(`warning: ${problem}\n`);
  return ExitCode.ok;
}

/** `memory list`: the silo's facts, newest first, or its documents with --docs. */
export function listCommand(options: MemoryListOptions): Promise<number> {
  return withSilo(options, (store, contents, platform) => (options.docs ? listDocuments(platform, contents, options) : listFacts(store, options)));
}
