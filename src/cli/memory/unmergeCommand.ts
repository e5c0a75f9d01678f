import { ExitCode } from '../exitCodes.js';
import type { MemorySiloOptions } from '../options.js';
import { withSilo } from './memoryStore.js';
import { printJson, write } from './output.js';

/**
 * `memory unmerge`: undoes one merge, making a restatement that was merged into another fact an
 * active fact of its own again. Nothing is deleted, so it runs without --yes.
 */
export function unmergeCommand(id: string, options: MemorySiloOptions): Promise<number> {
  const { silo } = options;
  return withSilo(options, async (store) => {
    const fact = await store.facts.getFact(silo, id);
    if (fact === undefined) {
      process.stderr.write(`No fact ${id} in silo ${silo}. See: syndicate memory list --silo ${silo} --status merged\n`);
      return ExitCode.failed;
    }
    if (fact.status !== 'merged') {
      process.stderr.write(`Fact ${id} is ${fact.status}, not merged into another fact: there is nothing to unmerge. See: syndicate memory list --silo ${silo} --status merged\n`);
      return ExitCode.failed;
    }
    const unmerged = await store.facts.unmergeFact(silo, id);
    if (unmerged === undefined) {
      process.stderr.write(`Fact ${id} changed while it was unmerged; run the command again.\n`);
      return ExitCode.failed;
    }
    if (options.json) printJson({ silo, unmerged, restated: fact.restates });
    else write(`Unmerged fact ${id} from ${fact.restates}: it is an active fact of its own again.\n`);
    return ExitCode.ok;
  });
}
