import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FactMemory } from '../../../src/memory/facts/factMemory.js';
import { instantEnd, instantStart } from '../../../src/memory/facts/instant.js';
import type { SqliteStore } from '../../../src/store/sqlite/index.js';
import { memoryOn, tempStore } from './helpers.js';

// Memory as it stood at a moment, computed from when each fact and its correction were said.

let store: SqliteStore;
let memory: FactMemory;

beforeEach(() => {
  store = tempStore();
  memory = memoryOn(store);
});

afterEach(async () => {
  await store.close();
});

async function said(text: string, at: string, tag: 'FACT' | 'CORRECTION' = 'FACT'): Promise<string> {
  const outcome = await memory.remember({ text, tag, keys: ['home'], said_at: at });
  if (outcome.kind !== 'stored') throw new Error(`"${text}" was not stored`);
  return outcome.fact.id;
}

async function stateAt(at: string): Promise<string[]> {
  const recalled = await memory.recall('Where does the user live?', { asOf: instantEnd(at) });
  return recalled.map(({ fact, current }) => `${current ? 'current' : 'superseded'}: ${fact.text}`).sort();
}

describe('recall as of a moment', () => {
  it('follows a chain of corrections: each fact is current from when it was said until its own correction', async () => {
    await said('The user lives in Paris.', '2025-01-01');
    await said('Correction: the user now lives in Berlin.', '2025-02-01', 'CORRECTION');
    await said('Correction: the user now lives in Madrid.', '2025-03-01', 'CORRECTION');

    expect(await stateAt('2025-01-15')).toEqual(['current: The user lives in Paris.']);
    expect(await stateAt('2025-02-15')).toEqual(['current: Correction: the user now lives in Berlin.', 'superseded: The user lives in Paris.']);
    expect(await stateAt('2025-03-15')).toEqual([
      'current: Correction: the user now lives in Madrid.',
      'superseded: Correction: the user now lives in Berlin.',
      'superseded: The user lives in Paris.',
    ]);
  });

  it('ranks a fact corrected later as the current fact it was, not as history', async () => {
    await said('The user lives in Paris.', '2025-01-01');
    await said('The user visited Paris once for work.', '2025-01-02');
    await said('Correction: the user now lives in Berlin.', '2025-02-01', 'CORRECTION');

    const now = await memory.recall('Where does the user live?');
    const then = await memory.recall('Where does the user live?', { asOf: instantEnd('2025-01-15') });

    expect(now.find(({ fact }) => fact.text === 'The user lives in Paris.')).toMatchObject({ current: false });
    expect(then[0]).toMatchObject({ current: true, fact: { text: 'The user lives in Paris.', status: 'active', supersededBy: null } });
  });

  it('ranks memory as of a moment after everything was said exactly as recall ranks it now', async () => {
    await said('The user lives in Paris.', '2025-01-01');
    await said('The user visited Paris once for work.', '2025-01-02');
    await said('The user lives near the river.', '2025-01-03');
    await said('Correction: the user now lives in Berlin.', '2025-02-01', 'CORRECTION');
    const at = instantEnd('2025-03-01');

    const now = await memory.recall('Where does the user live?', { now: at });
    const then = await memory.recall('Where does the user live?', { asOf: at });

    expect(then).toEqual(now);
  });

  it('dates a retirement by when the fact was retired once its correction is deleted', async () => {
    const paris = await said('The user lives in Paris.', '2025-01-01');
    const berlin = await said('Correction: the user now lives in Berlin.', '2025-02-01', 'CORRECTION');
    await store.facts.deleteFact(memory.silo, berlin);
    const retired = (await store.facts.getFact(memory.silo, paris))!.updatedAt;

    const before = await memory.recall('Where does the user live?', { asOf: retired - 1 });
    const after = await memory.recall('Where does the user live?', { asOf: retired });

    expect(before.map(({ current }) => current)).toEqual([true]);
    expect(after.map(({ current }) => current)).toEqual([false]);
  });
});

describe('instants', () => {
  it('reads a day as from its first to its last millisecond in UTC', () => {
    expect([instantStart('2025-03-01'), instantEnd('2025-03-01')]).toEqual([Date.parse('2025-03-01T00:00:00Z'), Date.parse('2025-03-01T23:59:59.999Z')]);
  });

  it('reads a date-time with its zone as that moment', () => {
    expect([instantStart('2025-03-01T12:00:00+01:00'), instantEnd('2025-03-01T12:00:00+01:00')]).toEqual([Date.parse('2025-03-01T11:00:00Z'), Date.parse('2025-03-01T11:00:00Z')]);
  });
});
