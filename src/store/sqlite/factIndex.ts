import { FACT_TAGS, type FactStatus, type FactTag } from '../facts.js';
import { createCodeTable, type CodeTable } from './binaryCodes.js';

// One silo's binary codes in memory, for the first pass of a vector search: the codes nearest the
// query's code name the facts whose float vectors are then compared exactly. The index is a cache
// of the fact_codes table at one version of the silo (fact_silos.version, bumped by every write to
// the silo): a search that finds another version, because another process wrote, loads it again.

export interface IndexedCode {
  number: number;
  tag: FactTag;
  status: FactStatus;
  code: Uint8Array;
}

export interface CandidateFilter {
  tag?: FactTag;
  activeOnly?: boolean;
}

export interface SiloIndex {
  /** The silo's version this index holds. */
  version: number;
  readonly size: number;
  add(entry: IndexedCode): void;
  setStatus(number: number, status: FactStatus): void;
  remove(number: number): void;
  /**
   * The fact numbers of up to `count` codes nearest `query` that pass the filter (all of them when
   * fewer pass); ties at the cut are taken in slot order.
   */
  nearest(query: Uint8Array, count: number, filter: CandidateFilter): number[];
}

const TAG_INDEX = new Map<FactTag, number>(FACT_TAGS.map((tag, index) => [tag, index]));
const ANY_TAG = -1;

export function createSiloIndex(version: number, codeBytes: number, entries: Iterable<IndexedCode>): SiloIndex {
  const table: CodeTable = createCodeTable(codeBytes);
  // By slot; slots are dense, a removal moves the last slot into the hole.
  const numbers: number[] = [];
  const tags: number[] = [];
  const active: boolean[] = [];
  const slots = new Map<number, number>();

  const add = ({ number, tag, status, code }: IndexedCode): void => {
    slots.set(number, numbers.length);
    numbers.push(number);
    tags.push(TAG_INDEX.get(tag)!);
    active.push(status === 'active');
    table.push(code);
  };
  for (const entry of entries) add(entry);

  return {
    version,
    get size() {
      return numbers.length;
    },
    add,
    setStatus(number, status) {
      const slot = slots.get(number);
      if (slot !== undefined) active[slot] = status === 'active';
    },
    remove(number) {
      const slot = slots.get(number);
      if (slot === undefined) return;
      const last = numbers.length - 1;
      table.removeSwap(slot);
      slots.delete(number);
      if (slot !== last) {
        numbers[slot] = numbers[last]!;
        tags[slot] = tags[last]!;
        active[slot] = active[last]!;
        slots.set(numbers[slot]!, slot);
      }
      numbers.pop();
      tags.pop();
      active.pop();
    },
    nearest(query, count, { tag, activeOnly = false }) {
      const wanted = tag === undefined ? ANY_TAG : TAG_INDEX.get(tag)!;
      const excluded =
        wanted === ANY_TAG && !activeOnly ? undefined : (slot: number): boolean => (wanted !== ANY_TAG && tags[slot] !== wanted) || (activeOnly && !active[slot]);
      return Array.from(table.nearest(query, count, excluded), (slot) => numbers[slot]!);
    },
  };
}
