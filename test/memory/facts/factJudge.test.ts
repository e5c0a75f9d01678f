import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScriptStep } from '../../../src/config/schema.js';
import type { SqliteStore } from '../../../src/store/sqlite/index.js';
import { extractor, memoryOn, tempStore } from './helpers.js';

// A model judging restatements just below the threshold, played by the scripted model. With the
// fake embedder, "The user lives in Paris." and "The user lives in Paris now." score 0.913: inside
// the band below a 0.95 threshold.

const PARIS = { text: 'The user lives in Paris.', keys: ['home'] };
const NEAR = { text: 'The user lives in Paris now.', keys: ['home'] };

let store: SqliteStore;
beforeEach(() => {
  store = tempStore();
});
afterEach(async () => {
  await store.close();
});

const judging = (script: ScriptStep[]) => memoryOn(store, { dedupThreshold: 0.95, model: extractor(script), judgeHardCases: true });

describe('a model judging hard cases', () => {
  it('merges a near restatement the model calls the same fact', async () => {
    const memory = judging([{ match: 'Paris now', json: { verdict: 'same' } }]);
    const first = await memory.remember(PARIS);
    expect(await memory.remember(NEAR)).toMatchObject({ kind: 'duplicate', of: { id: first.kind === 'stored' ? first.fact.id : '' }, warnings: [] });
  });

  it('retires the known fact when the model calls the statement its update', async () => {
    const memory = judging([{ match: 'Paris now', json: { verdict: 'update' } }]);
    const first = await memory.remember(PARIS);
    const firstId = first.kind === 'stored' ? first.fact.id : '';
    expect(await memory.remember(NEAR)).toMatchObject({ kind: 'stored', superseded: [firstId] });
    expect(await store.facts.getFact(memory.silo, firstId)).toMatchObject({ status: 'superseded' });
  });

  it('keeps both when the model calls them different facts', async () => {
    const memory = judging([{ match: 'Paris now', json: { verdict: 'keep_both' } }]);
    await memory.remember(PARIS);
    expect(await memory.remember(NEAR)).toMatchObject({ kind: 'stored', superseded: [] });
    expect(await store.facts.listFacts(memory.silo, { status: 'active' })).toHaveLength(2);
  });

  it('falls back to the rules, with a warning, when the model answers no verdict', async () => {
    const memory = judging([{ match: 'Paris now', reply: 'They look alike to me.' }]);
    await memory.remember(PARIS);
    const outcome = await memory.remember(NEAR);
    expect(outcome).toMatchObject({ kind: 'stored', superseded: [], warnings: [expect.stringMatching(/^judging "The user lives in Paris now\." against "The user lives in Paris\." failed \(the memory judge scripted\/.* did not answer JSON/)] });
  });

  it('leaves the scripted extraction model out of it unless asked: the rules decide offline', async () => {
    const memory = memoryOn(store, { dedupThreshold: 0.95, model: extractor([{ match: 'Paris now', json: { verdict: 'same' } }]) });
    await memory.remember(PARIS);
    expect(await memory.remember(NEAR)).toMatchObject({ kind: 'stored', warnings: [] });
  });
});
