import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Embedder } from '../../../src/memory/embeddings/embedder.js';
import { localEmbedder } from '../../../src/memory/embeddings/localEmbedder.js';
import type { FactMemory } from '../../../src/memory/facts/factMemory.js';
import type { SqliteStore } from '../../../src/store/sqlite/index.js';
import { memoryOn, tempStore } from './helpers.js';

// Corrections and restatements read by the embedder users get by default (USE-lite) with its
// calibrated thresholds: unrelated statements sit at cosine 0.4-0.6 on it, which a bag of words
// never reproduces, so these cases need the real one.

let embedder: Embedder;
let store: SqliteStore;
let memory: FactMemory;

beforeAll(() => {
  embedder = localEmbedder();
});

beforeEach(() => {
  store = tempStore();
  memory = memoryOn(store, { embedder });
});

afterEach(async () => {
  await store.close();
});

async function remember(text: string, keys: string[], tag: 'FACT' | 'CORRECTION' | 'EPISODE' = 'FACT'): Promise<string> {
  const outcome = await memory.remember({ text, keys, tag });
  return outcome.kind === 'stored' ? outcome.fact.id : outcome.restatement.id;
}

async function activeTexts(): Promise<string[]> {
  return (await store.facts.listFacts(memory.silo, { status: 'active' })).map((fact) => fact.text).sort();
}

describe('a correction of something never stored', () => {
  it('retires nothing when it ends a value no fact states', async () => {
    await remember('I live in Paris with my partner.', ['home']);
    await remember('I work as a nurse.', ['job']);
    const outcome = await memory.remember({ text: 'I no longer drive to work.', keys: ['commute'], tag: 'CORRECTION' });
    expect(outcome.superseded).toEqual([]);
    expect(await activeTexts()).toEqual(['I live in Paris with my partner.', 'I no longer drive to work.', 'I work as a nurse.']);
  });

  it('retires nothing of a person it names when their other facts say something else', async () => {
    await remember('Hannah has twin boys.', ['hannah']);
    await remember('Hannah lives in Leeds.', ['hannah']);
    const outcome = await memory.remember({ text: 'Hannah no longer works at Microsoft.', keys: ['hannah'], tag: 'CORRECTION' });
    expect(outcome.superseded).toEqual([]);
  });

  it("retires nothing when a don't … anymore names another instrument than the one stored", async () => {
    await remember('I play the piano.', ['piano']);
    const outcome = await memory.remember({ text: "I don't play the guitar anymore.", keys: ['guitar'], tag: 'CORRECTION' });
    expect(outcome.superseded).toEqual([]);
  });

  it('retires nothing merely close in meaning: selling a motorbike leaves the car', async () => {
    await remember('I have two cats.', ['pets']);
    await remember('My car is a red Honda Civic.', ['car']);
    const outcome = await memory.remember({ text: 'Update: I sold my motorbike.', keys: ['motorbike'], tag: 'CORRECTION' });
    expect(outcome.superseded).toEqual([]);
  });
});

describe('a correction of something stored', () => {
  it('retires the fact stating the value it ends', async () => {
    const drives = await remember('I drive to work every day.', ['commute']);
    await remember('I live in Paris with my partner.', ['home']);
    const outcome = await memory.remember({ text: 'I no longer drive to work.', keys: ['commute'], tag: 'CORRECTION' });
    expect(outcome.superseded).toEqual([drives]);
  });

  it('retires the fact, not the trips that name the old value', async () => {
    const home = await remember('The user lives in Porto.', ['home']);
    await remember('On a trip to Porto the user went to a museum with Biscuit.', ['porto', 'biscuit'], 'EPISODE');
    const outcome = await memory.remember({ text: 'The user lives in Dublin, not Porto.', keys: ['home'], tag: 'CORRECTION' });
    expect(outcome.superseded).toEqual([home]);
  });

  it("retires the corrected attribute and leaves the entity's other facts current", async () => {
    const breed = await remember('Our dog Rex is a beagle.', ['rex', 'dog']);
    await remember('Our dog Rex sleeps in the kitchen now.', ['rex', 'dog']);
    const outcome = await memory.remember({ text: 'Rex is actually a basset hound.', keys: ['rex'], tag: 'CORRECTION' });
    expect(outcome.superseded).toEqual([breed]);
    expect(await activeTexts()).toContain('Our dog Rex sleeps in the kitchen now.');
  });
});

describe('a correction stating a name', () => {
  it('retires the fact stating another name, not a sibling stating a date', async () => {
    const project = await remember("The user's current project is called Juniper.", ['project']);
    await remember("The user's project deadline is in June.", ['project']);
    const outcome = await memory.remember({ text: 'Actually, the user is working on the Kestrel project.', keys: ['project'], tag: 'CORRECTION' });
    expect(outcome.superseded).toEqual([project]);
  });
});

describe('a correction of a fact restated under another key', () => {
  it('retires the restatement as well, found by its likeness to the corrected fact', async () => {
    const rent = await remember('My rent is 1200 euros a month.', ['rent']);
    const restated = await remember('I pay 1200 a month for the flat.', ['flat']);
    const outcome = await memory.remember({ text: 'Correction: my rent went up to 1350 euros.', keys: ['rent'], tag: 'CORRECTION' });
    expect(outcome.superseded.sort()).toEqual([rent, restated].sort());
  });

  it('leaves a fact that only shares the old value', async () => {
    await remember('My rent is 1200 euros a month.', ['rent']);
    await remember('I paid 1200 euros for my bike.', ['bike']);
    await memory.remember({ text: 'Correction: my rent went up to 1350 euros.', keys: ['rent'], tag: 'CORRECTION' });
    expect(await activeTexts()).toContain('I paid 1200 euros for my bike.');
  });

  it('leaves a fact naming the old value that says something else of it', async () => {
    await remember('My manager is Sofia.', ['manager']);
    await remember("Sofia is my neighbour's daughter.", ['neighbour']);
    await memory.remember({ text: 'Actually my manager is Laura now.', keys: ['manager'], tag: 'CORRECTION' });
    expect(await activeTexts()).toContain("Sofia is my neighbour's daughter.");
  });
});

describe('restatements', () => {
  it('does not merge two things said of one entity, however close their wording', async () => {
    await remember('Our dog Rex is a beagle.', ['rex', 'dog']);
    const outcome = await memory.remember({ text: 'Our dog Rex sleeps in the kitchen now.', keys: ['rex', 'dog'] });
    expect(outcome.kind).toBe('stored');
  });

  it('merges a paraphrase stating the same value', async () => {
    const first = await remember('The user is learning Italian.', ['language']);
    const outcome = await memory.remember({ text: 'The user studies the Italian language.', keys: ['language'] });
    expect(outcome).toMatchObject({ kind: 'duplicate', of: { id: first } });
  });
});
