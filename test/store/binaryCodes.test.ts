import { describe, expect, it } from 'vitest';
import { binaryCode, codeBytes, createCodeTable } from '../../src/store/sqlite/binaryCodes.js';
import { seeded } from '../../bench/memoryData.js';

// The nearest codes come from hand-assembled WebAssembly: checked here against the definition,
// the `count` smallest Hamming distances, ties at the cut taken in slot order.

function hamming(a: Uint8Array, b: Uint8Array): number {
  let distance = 0;
  for (let i = 0; i < a.length; i++) for (let bits = a[i]! ^ b[i]!; bits !== 0; bits &= bits - 1) distance++;
  return distance;
}

function expected(codes: readonly Uint8Array[], query: Uint8Array, count: number, excluded: (slot: number) => boolean): number[] {
  return codes
    .map((code, slot) => ({ slot, distance: hamming(code, query) }))
    .filter(({ slot }) => !excluded(slot))
    .sort((a, b) => a.distance - b.distance || a.slot - b.slot)
    .slice(0, count)
    .map(({ slot }) => slot)
    .sort((a, b) => a - b);
}

describe('binary code table', () => {
  const random = seeded(11);
  // Few distinct bits, so many codes share a distance and the cut falls inside a tie.
  const code = (bytes: number): Uint8Array => Uint8Array.from({ length: bytes }, () => (random() < 0.5 ? 0 : 1 << Math.floor(random() * 8)));

  it.each([64, 8, 128])('finds the nearest of %i-byte codes, ties at the cut in slot order', (bytes) => {
    const table = createCodeTable(bytes);
    const codes = Array.from({ length: 3_000 }, () => code(bytes));
    codes.forEach((each) => table.push(each));
    for (const count of [0, 1, 40, 400, 2_999, 3_000, 5_000]) {
      const query = code(bytes);
      expect([...table.nearest(query, count)]).toEqual(expected(codes, query, count, () => false));
    }
  });

  it('leaves out the slots it is told to, even when fewer than asked for remain', () => {
    const table = createCodeTable(codeBytes(512));
    const codes = Array.from({ length: 2_000 }, () => code(64));
    codes.forEach((each) => table.push(each));
    const query = code(64);
    const odd = (slot: number): boolean => slot % 2 === 1;
    expect([...table.nearest(query, 300, odd)]).toEqual(expected(codes, query, 300, odd));
    expect([...table.nearest(query, 1_500, odd)]).toEqual(expected(codes, query, 1_500, odd));
  });

  it('follows a removal, and answers an empty table', () => {
    const table = createCodeTable(8);
    expect([...table.nearest(code(8), 10)]).toEqual([]);
    const codes = Array.from({ length: 5 }, () => code(8));
    codes.forEach((each) => table.push(each));
    table.removeSwap(1);
    const left = [codes[0]!, codes[4]!, codes[2]!, codes[3]!];
    const query = code(8);
    expect([...table.nearest(query, 2)]).toEqual(expected(left, query, 2, () => false));
  });
});

describe('signed sums of the float query against codes', () => {
  const random = seeded(12);
  const vector = (dimensions: number): Float32Array => Float32Array.from({ length: dimensions }, () => random() * 2 - 1);
  // The definition: each dimension added where the code's bit is set, subtracted where it is not.
  const signedSum = (query: Float32Array, code: Uint8Array): number => query.reduce((sum, value, i) => sum + ((code[i >> 3]! >> (i & 7)) & 1 ? value : -value), 0);

  it.each([512, 100, 1])('equal the definition for %i dimensions, padding bits counting nothing', (dimensions) => {
    const table = createCodeTable(codeBytes(dimensions));
    const codes = Array.from({ length: 50 }, () => binaryCode(vector(dimensions)));
    codes.forEach((each) => table.push(each));
    const query = vector(dimensions);
    const slots = Int32Array.from([7, 0, 49, 7, 23]);

    const sums = [...table.signedSums(query, slots)];

    sums.forEach((sum, i) => expect(sum).toBeCloseTo(signedSum(query, codes[slots[i]!]!), 4));
  });

  it('rank the code of the query itself first', () => {
    const table = createCodeTable(codeBytes(512));
    const vectors = Array.from({ length: 200 }, () => vector(512));
    vectors.forEach((each) => table.push(binaryCode(each)));

    const sums = table.signedSums(vectors[123]!, Int32Array.from(vectors.keys()));

    expect(sums.indexOf(Math.max(...sums))).toBe(123);
  });
});
