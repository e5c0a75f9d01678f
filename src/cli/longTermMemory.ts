import type { IngestReport } from '../memory/facts/factMemory.js';
import type { Memory } from '../memory/openMemory.js';
import { siloFor } from '../core/silo.js';
import type { CompiledSyndicate } from '../runtime/compileSyndicate.js';
import type { Store } from '../store/store.js';
import { errorMessage } from '../core/errors.js';

// Long-term memory as the faces open it (run/chat, serve-a2a, mcp): one silo of a long-term
// syndicate, over the face's store, with documents beside its database file.

/** Undefined unless the syndicate keeps long-term memory. */
export async function openLongTermMemory(syndicate: CompiledSyndicate, store: Store, dbPath: string, silo = siloFor(syndicate.name)): Promise<Memory | undefined> {
  if (!syndicate.extractionModel) return undefined;
  // Loaded only for long-term syndicates: the memory layer is a fifth of the CLI's code.
  const { openMemory } = await import('../memory/openMemory.js');
  return openMemory({
    store,
    dbPath,
    silo,
    embedder: syndicate.embedder(),
    extractionModel: syndicate.extractionModel,
    extractionRules: syndicate.memoryExtractionRules,
  });
}

/** For servers, whose requests name their silo: each silo's memory, opened on first use. */
export function memoriesBySilo(syndicate: CompiledSyndicate, store: Store, dbPath: string): (silo: string) => Promise<Memory | undefined> {
  const opened = new Map<string, Promise<Memory | undefined>>();
  return (silo) => {
    let memory = opened.get(silo);
    if (!memory) {
      memory = openLongTermMemory(syndicate, store, dbPath, silo);
      opened.set(silo, memory);
    }
    return memory;
  };
}

/** Distils the session into the memory (servers: after each completed turn), reporting on stderr. */
export async function rememberSession(memory: Memory, sessionId: string): Promise<void> {
  try {
    process.stderr.write(`${memoryNote(await memory.facts.ingestSession(sessionId), memory.facts.silo)}\n`);
  } catch (error) {
    process.stderr.write(`warning: could not update long-term memory from session ${sessionId}: ${errorMessage(error)}\n`);
  }
}

/** What an ingestion did, for a person: "Memory (silo): 2 new facts from 3 turns (1 older fact superseded)." */
export function memoryNote(report: IngestReport, silo: string): string {
  const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;
  const found = report.turns === 0 ? 'no new turns to remember' : `${plural(report.stored, 'new fact')} from ${plural(report.turns, 'turn')}`;
  const details = [
    report.duplicates > 0 ? `${report.duplicates} already known` : '',
    report.superseded > 0 ? `${plural(report.superseded, 'older fact')} superseded` : '',
  ].filter(Boolean);
  const warnings = report.warnings.map((warning) => `\n  warning: ${warning}`).join('');
  return `Memory (${silo}): ${found}${details.length ? ` (${details.join(', ')})` : ''}.${warnings}`;
}
