import { ExitCode } from '../exitCodes.js';
import type { MemoryDupesOptions } from '../options.js';
import { siloEmbedder } from './embedders.js';
import { findDuplicateGroups, type DuplicateGroup } from './findDuplicates.js';
import { withSilo } from './memoryStore.js';
import { FACT_HEADER, factRow, plural, printJson, write } from './output.js';
import { formatTable } from '../text.js';

function describe(silo: string, groups: readonly DuplicateGroup[], threshold: number): string {
  if (groups.length === 0) return `No duplicates in silo ${silo}: no two active facts with the same tag are ${threshold} similar or more.\n`;
  const lines = groups.flatMap((group, index) => [
    `Group ${index + 1} (similarity ${group.similarity.toFixed(3)}):`,
    formatTable([FACT_HEADER, ...group.facts.map(factRow)]).replace(/^/gm, '  '),
    '',
  ]);
  const extra = groups.flatMap((group) => group.facts.slice(1).map((fact) => fact.id));
  lines.push(
    `${plural(groups.length, 'group')} of active facts at ${threshold} similarity or more. To keep the oldest of each group and delete the rest:`,
    `  syndicate memory delete --silo ${silo} ${extra.join(' ')}`,
  );
  return `${lines.join('\n')}\n`;
}

/** `memory dupes`: groups of active facts that slipped past the duplicate check. */
export function dupesCommand(options: MemoryDupesOptions): Promise<number> {
  return withSilo(options, async (store, contents) => {
    const groups = contents.active < 2 ? [] : await findDuplicateGroups(store.facts, siloEmbedder(contents), options.silo, options.threshold);
    if (options.json) printJson({ silo: options.silo, threshold: options.threshold, groups });
    else write(describe(options.silo, groups, options.threshold));
    return ExitCode.ok;
  });
}
