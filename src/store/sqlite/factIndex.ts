import { FACT_TAGS, type FactStatus, type FactTag } from '../facts.js';
import { binaryCode, createCodeTable, type CodeTable } from './binaryCodes.js';

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
   * The fact numbers of up to `count` codes that pass the filter (all of them when fewer pass),
   * picked for `query`: a shortlist by Hamming distance to its code, ordered by its signed sums.
   */
  nearest(query: Float32Array, count: number, filter: CandidateFilter): number[];
}

// The Hamming shortlist a search orders by signed sums: SHORTLIST_FACTOR times the count wanted, at
// least SHORTLIST_MIN. Against an exact scan of 20k USE-lite vectors of bench facts (100 queries),
// the best 200 of a 1,000 shortlist held 99.75% of the exact top 40 and the best 100 99.9% of the
// top 10; the 400 nearest by Hamming distance alone held 99.57% and 100%. Growing the shortlist to
// 4,000 changed nothing.
const SHORTLIST_MIN = 1_000;
const SHORTLIST_FACTOR = 5;

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
      const shortlist = table.nearest(binaryCode(query), Math.max(SHORTLIST_MIN, count * SHORTLIST_FACTOR), excluded);
      if (shortlist.length <= count) return Array.from(shortlist, (slot) => numbers[slot]!);
      const sums = table.signedSums(query, shortlist);
      // The cut is the count-th best sum: a typed array sorts natively, where sorting the shortlist
      // by a comparator took a quarter of the search's JavaScript time.
      const cut = sums.slice().sort()[sums.length - count]!;
      let atCut = count - sums.filter((sum) => sum > cut).length;
      const picked: number[] = [];
      shortlist.forEach((slot, i) => {
        if (sums[i]! > cut || (sums[i] === cut && atCut-- > 0)) picked.push(numbers[slot]!);
      });
      return picked;
    },
  };
}
