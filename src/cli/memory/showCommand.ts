import type { FactRecord } from '../../store/facts.js';
import { factChain, type FactChain } from '../../memory/facts/factChain.js';
import type { Store } from '../../store/store.js';
import { ExitCode } from '../exitCodes.js';
import type { MemorySiloOptions } from '../options.js';
import { formatTime, preview } from '../text.js';
import { withSilo } from './memoryStore.js';
import { FACT_HEADER, factRow, printJson, write } from './output.js';
import { formatTable } from '../text.js';

interface Provenance {
  sessionId: string;
  turnId: string;
  /** The session's syndicate; undefined once the session was deleted. */
  syndicate: string | undefined;
  /** What the user said in that turn; undefined once the session was deleted. */
  input: string | undefined;
}

interface ShownFact extends FactChain {
  fact: FactRecord;
  provenance: Provenance | null;
}

async function provenanceOf(store: Store, fact: FactRecord): Promise<Provenance | null> {
  if (fact.provenance === null) return null;
  const { sessionId, turnId } = fact.provenance;
  const session = await store.getSession(sessionId);
  if (session === undefined) return { sessionId, turnId, syndicate: undefined, input: undefined };
  const start = (await store.readEvents(sessionId)).find(({ event }) => event.type === 'turn-start' && event.turnId === turnId)?.event;
  return { sessionId, turnId, syndicate: session.syndicate, input: start?.type === 'turn-start' ? start.input : undefined };
}

function describe(shown: ShownFact): string {
  const { fact } = shown;
  const status =
    fact.status === 'active'
      ? 'active'
      : fact.status === 'merged'
        ? `merged: a restatement of ${fact.restates} (undo: syndicate memory unmerge ${fact.id} --silo ${fact.silo})`
        : `superseded by ${fact.supersededBy}`;
  const fields: Array<[string, string]> = [
    ['text', fact.text], ['tag', fact.tag], ['status', status], ['date', fact.date ?? '-'], ['source', fact.source], ['keys', fact.keys.join(', ')],
    ['embedding', fact.embeddingModel], ['created', formatTime(fact.createdAt)], ['updated', formatTime(fact.updatedAt)],
  ];
  const lines = [`Fact ${fact.id} in silo ${fact.silo}`, ...fields.map(([name, value]) => `  ${`${name}:`.padEnd(11)}${value}`)];
  if (shown.supersededBy.length > 0 || shown.deletedCorrection !== null) {
    lines.push('', 'Superseded by (oldest correction first):');
    if (shown.supersededBy.length > 0) lines.push(indent(formatTable([FACT_HEADER, ...shown.supersededBy.map(factRow)])));
    if (shown.deletedCorrection !== null) lines.push(`  ${shown.deletedCorrection} (deleted)`);
  }
  if (shown.supersedes.length > 0) lines.push('', 'Supersedes:', indent(formatTable([FACT_HEADER, ...shown.supersedes.map(factRow)])));
  if (shown.restatements.length > 0) lines.push('', 'Restatements merged into it:', indent(formatTable([FACT_HEADER, ...shown.restatements.map(factRow)])));
  const origin = shown.provenance;
  lines.push('');
  if (origin === null) lines.push('Remembered outside a conversation (no session).');
  else if (origin.syndicate === undefined) lines.push(`Learnt in session ${origin.sessionId}, turn ${origin.turnId}; the session has since been deleted.`);
  else {
    const said = origin.input === undefined ? '' : `, where the user said: "${preview(origin.input, 200)}"`;
    lines.push(`Learnt in session ${origin.sessionId} (${origin.syndicate}), turn ${origin.turnId}${said}`, `  See: syndicate sessions show ${origin.sessionId}`);
  }
  return `${lines.join('\n')}\n`;
}

function indent(text: string): string {
  return text.replace(/^/gm, '  ');
}

/** `memory show`: one fact with its supersession chain and where it was learnt. */
export function showCommand(id: string, options: MemorySiloOptions): Promise<number> {
  return withSilo(options, async (store) => {
    const fact = await store.facts.getFact(options.silo, id);
    if (fact === undefined) {
      process.stderr.write(`No fact ${id} in silo ${options.silo}. See: syndicate memory list --silo ${options.silo}\n`);
      return ExitCode.failed;
    }
    const shown: ShownFact = { fact, ...(await factChain(store.facts, fact)), provenance: await provenanceOf(store, fact) };
    if (options.json) printJson(shown);
    else write(describe(shown));
    return ExitCode.ok;
  });
}
