import { ExitCode } from '../exitCodes.js';
import type { MemoryOptions } from '../options.js';
import { listSiloIds, siloContents, siloModels, withMemoryStore, type SiloContents } from './memoryStore.js';
import { printJson, write } from './output.js';
import { formatTable } from '../text.js';

function table(silos: readonly SiloContents[]): string {
  const rows = silos.map((silo) => [
    silo.silo, String(silo.facts), String(silo.active), String(silo.superseded), String(silo.documents), siloModels(silo).join(', ') || '-',
  ]);
  return formatTable([['SILO', 'FACTS', 'ACTIVE', 'SUPERSEDED', 'DOCUMENTS', 'EMBEDDING'], ...rows]);
}

/** `memory silos`: every silo with its fact and document counts and embedding model(s). */
export function silosCommand(options: MemoryOptions): Promise<number> {
  return withMemoryStore(options, false, async (store, platform) => {
    const silos: SiloContents[] = [];
    for (const silo of store ? await listSiloIds(store) : []) {
      const contents = await siloContents(store!, silo);
      if (contents) silos.push(contents);
    }
    if (options.json) printJson(silos);
    else if (silos.length === 0) write(`No memory in ${platform.storeName}: no silo holds facts or documents yet.\n`);
    else write(`${table(silos)}\n`);
    return ExitCode.ok;
  });
}
