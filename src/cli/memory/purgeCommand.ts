import { join } from 'node:path';
import { ExitCode } from '../exitCodes.js';
import type { MemorySiloOptions } from '../options.js';
import { siloEmbedder } from './embedders.js';
import { withSilo, type SiloContents } from './memoryStore.js';
import type { Platform } from '../../platform/createPlatform.js';
import { dryRunNote, plural, printJson, write } from './output.js';

function what(contents: SiloContents, platform: Platform): string {
  const facts = `${plural(contents.facts, 'fact')} (${contents.active} active, ${contents.superseded} superseded) with their vectors and ingestion marks`;
  const bundles = contents.bundles.length === 0 ? '' : ` in ${plural(contents.bundles.length, 'bundle')} (${contents.bundles.join(', ')})`;
  return `${facts}, and ${plural(contents.documents, 'document')}${bundles} with their links, revisions and ${platform.documentsDir === undefined ? 'content' : `files in ${join(platform.documentsDir, contents.silo)}`}`;
}

/** `memory purge`: everything of the silo, for good; a dry run unless --yes. */
export function purgeCommand(options: MemorySiloOptions): Promise<number> {
  const { silo } = options;
  return withSilo(options, async (store, contents, platform) => {
    if (options.yes) {
      await store.facts.purgeSilo(silo);
      await (await platform.documents(siloEmbedder(contents))).purge(silo);
    }
    const { facts, active, superseded, documents, bundles } = contents;
    if (options.json) printJson({ silo, dryRun: !options.yes, facts, active, superseded, documents, bundles });
    else if (options.yes) write(`Purged silo ${silo}: deleted ${what(contents, platform)}.\n`);
    else write(`Would purge silo ${silo}: ${what(contents, platform)}.\n${dryRunNote('purge it; this cannot be undone')}\n`);
    return ExitCode.ok;
  });
}
