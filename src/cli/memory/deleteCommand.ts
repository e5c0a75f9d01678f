import type { FactRecord } from '../../store/facts.js';
import { ExitCode } from '../exitCodes.js';
import type { MemorySiloOptions } from '../options.js';
import { withSilo } from './memoryStore.js';
import { dryRunNote, FACT_HEADER, factRow, plural, printJson, write } from './output.js';
import { formatTable } from '../text.js';

/** `memory delete`: a real delete of facts, their vectors and text index entries; a dry run unless --yes. */
export function deleteCommand(ids: readonly string[], options: MemorySiloOptions): Promise<number> {
  const { silo } = options;
  return withSilo(options, async (store) => {
    const facts: FactRecord[] = [];
    const missing: string[] = [];
    for (const id of new Set(ids)) {
      const fact = await store.facts.getFact(silo, id);
      if (fact) facts.push(fact);
      else missing.push(id);
    }
    // All or nothing: a mistyped id means the list is not what the person meant.
    if (missing.length > 0) {
      process.stderr.write(`No fact ${missing.join(', ')} in silo ${silo}; nothing was deleted. See: syndicate memory list --silo ${silo}\n`);
      return ExitCode.failed;
    }
    const deleting = new Set(facts.map((fact) => fact.id));
    // Facts retired by a deleted correction stay superseded: they were corrected, and stay history.
    const retiredBy = await Promise.all(facts.map((fact) => store.facts.listFacts(silo, { supersededBy: fact.id })));
    const retired = retiredBy.flat().filter((fact) => !deleting.has(fact.id));
    if (options.yes) for (const fact of facts) await store.facts.deleteFact(silo, fact.id);

    if (options.json) {
      printJson({ silo, dryRun: !options.yes, deleted: options.yes ? facts : [], wouldDelete: options.yes ? [] : facts, staySuperseded: retired.map((fact) => fact.id) });
      return ExitCode.ok;
    }
    const what = `${plural(facts.length, 'fact')} from silo ${silo}, with ${facts.length === 1 ? 'its vector' : 'their vectors'}`;
    const lines = [options.yes ? `Deleted ${what}:` : `Would delete ${what}:`];
    lines.push(formatTable([FACT_HEADER, ...facts.map(factRow)]).replace(/^/gm, '  '));
    if (retired.length > 0) lines.push(`${plural(retired.length, 'fact')} retired by these corrections ${options.yes ? 'stay' : 'would stay'} superseded: ${retired.map((fact) => fact.id).join(', ')}`);
    if (!options.yes) lines.push(dryRunNote(`delete ${facts.length === 1 ? 'it' : 'them'}`));
    write(`${lines.join('\n')}\n`);
    return ExitCode.ok;
  });
}
