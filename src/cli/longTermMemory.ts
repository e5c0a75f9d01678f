import type { IngestReport } from '../memory/facts/factMemory.js';
import type { Memory } from '../memory/openMemory.js';
import { errorMessage } from '../core/errors.js';

// What the faces (run/chat, serve-a2a, mcp) tell a person about long-term memory; the platform opens it.

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
