import type { FactRecord } from '../../store/facts.js';
import { preview } from '../text.js';

// How memory commands print: a table or lines for a person, one JSON document with --json.

export const write = (text: string): void => void process.stdout.write(text);

export function printJson(value: unknown): void {
  write(`${JSON.stringify(value, null, 2)}\n`);
}

const TEXT_PREVIEW = 90;

/** A fact as one table row: id, tag, status, date, text. */
export function factRow(fact: FactRecord): string[] {
  return [fact.id, fact.tag, fact.status, fact.date ?? '-', preview(fact.text, TEXT_PREVIEW)];
}

export const FACT_HEADER = ['ID', 'TAG', 'STATUS', 'DATE', 'TEXT'];

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The closing line of every dry run. */
export function dryRunNote(action: string): string {
  return `Dry run: nothing was changed. Run again with --yes to ${action}.`;
}
