import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reembedSilo } from '../../../src/memory/facts/reembedSilo.js';
import type { FactStore } from '../../../src/store/facts.js';
import type { SqliteStore } from '../../../src/store/sqlite/index.js';
import type { ToolContext } from '../../../src/core/tool.js';
import { fakeEmbedder } from '../fakeEmbedder.js';
import { memoryOn, tempStore } from './helpers.js';

const CTX: ToolContext = { agent: 'Assistant', turnId: 't', sessionId: 's', signal: new AbortController().signal };

let store: SqliteStore;

beforeEach(() => {
  store = tempStore();
});

afterEach(async () => {
  await store.close();
});

describe('remembering facts', () => {
  it('stores a new fact as active', async () => {
    const outcome = await memoryOn(store).remember({ text: 'The user lives in Paris.', keys: ['home'] });
    expect(outcome).toMatchObject({ kind: 'stored', fact: { text: 'The user lives in Paris.', tag: 'FACT', status: 'active', source: 'user' }, warnings: [] });
  });

  it('keeps a restatement of an active fact with the same tag and a shared key as a merged record linked to it', async () => {
    const memory = memoryOn(store);
    const first = await memory.remember({ text: 'The user lives in Paris.', keys: ['home'] });
    const again = await memory.remember({ text: 'the user LIVES in Paris', keys: ['home', 'paris'] });
    const firstId = first.kind === 'stored' ? first.fact.id : '';
    expect(again).toMatchObject({ kind: 'duplicate', of: { id: firstId }, restatement: { text: 'the user LIVES in Paris', status: 'merged', restates: firstId } });
    expect((await store.facts.listFacts(memory.silo, { status: 'active' })).map((fact) => fact.id)).toEqual([firstId]);
    expect(await store.facts.listFacts(memory.silo, { status: 'merged' })).toHaveLength(1);
  });

  it('recalls the fact a restatement was merged into, once, by the restatement’s own words', async () => {
    const memory = memoryOn(store, { dedupThreshold: 0.6 });
    const first = await memory.remember({ text: 'The user lives in Paris.', keys: ['home'] });
    await memory.remember({ text: 'The user lives in Paris, in a flat near the canal.', keys: ['home'] });
    const recalled = await memory.recall('flat near the canal');
    expect(recalled.map((hit) => hit.fact.id)).toEqual([first.kind === 'stored' ? first.fact.id : '']);
  });

  it('never merges facts about different keys', async () => {
    const memory = memoryOn(store);
    await memory.remember({ text: 'The user lives in Paris.', keys: ['home'] });
    expect(await memory.remember({ text: 'The user lives in Paris.', keys: ['sister'] })).toMatchObject({ kind: 'stored' });
  });

  it('never merges facts that name another person or another day', async () => {
    const memory = memoryOn(store, { dedupThreshold: 0.5 });
    await memory.remember({ text: 'I owe Tom 20 dollars for the tickets.', keys: ['debt'] });
    expect(await memory.remember({ text: 'I owe Clara 20 dollars for the tickets.', keys: ['debt'] })).toMatchObject({ kind: 'stored' });
    await memory.remember({ text: 'The hike is on Saturday morning.', keys: ['hike'] });
    expect(await memory.remember({ text: 'The hike is on sunday morning.', keys: ['hike'] })).toMatchObject({ kind: 'stored' });
  });

  it('merges a restatement framed by another opener, whose capital names no one', async () => {
    const memory = memoryOn(store, { dedupThreshold: 0.5 });
    await memory.remember({ text: 'Note to self: the yoga class starts at 7am.', keys: ['yoga', 'class'] });
    expect(await memory.remember({ text: 'The yoga class starts at 7am.', keys: ['yoga', 'class'] })).toMatchObject({ kind: 'duplicate' });
  });

  it('never merges an episode told again on another day: it is another occasion', async () => {
    const memory = memoryOn(store);
    await memory.remember({ text: 'Took the dog to the park.', tag: 'EPISODE', keys: ['dog'], said_at: '2026-03-01T09:00:00Z' });
    expect(await memory.remember({ text: 'Took the dog to the park.', tag: 'EPISODE', keys: ['dog'], said_at: '2026-03-04T09:00:00Z' })).toMatchObject({ kind: 'stored' });
    expect(await memory.remember({ text: 'took the dog to the park', tag: 'EPISODE', keys: ['dog'], said_at: '2026-03-04T10:00:00Z' })).toMatchObject({ kind: 'duplicate' });
  });

  it('never merges facts whose keys name other entities, though they share one', async () => {
    const memory = memoryOn(store, { dedupThreshold: 0.5 });
    await memory.remember({ text: 'The user lent money for the concert tickets.', keys: ['debt', 'tom'] });
    expect(await memory.remember({ text: 'The user lent money for the concert tickets.', keys: ['debt', 'clara'] })).toMatchObject({ kind: 'stored' });
  });

  it('merges a restatement that names fewer of the same keys', async () => {
    const memory = memoryOn(store);
    await memory.remember({ text: 'The user lives in Paris.', keys: ['home', 'paris'] });
    expect(await memory.remember({ text: 'the user lives in Paris', keys: ['home'] })).toMatchObject({ kind: 'duplicate' });
  });

  it('never merges a fact into one stating another value in the same words around it', async () => {
    const memory = memoryOn(store, { dedupThreshold: 0.5 });
    await memory.remember({ text: 'The user prefers green tea in the morning.', keys: ['drink'] });
    expect(await memory.remember({ text: 'The user prefers black coffee in the morning.', keys: ['drink'] })).toMatchObject({ kind: 'stored' });
  });

  it('never merges a fact into its negation', async () => {
    const memory = memoryOn(store, { dedupThreshold: 0.5 });
    await memory.remember({ text: 'The user likes spicy food.', keys: ['food'] });
    expect(await memory.remember({ text: "The user doesn't like spicy food.", keys: ['food'] })).toMatchObject({ kind: 'stored' });
  });

  it('never merges a statement into the fact whose value it names as replaced', async () => {
    const memory = memoryOn(store, { dedupThreshold: 0.5 });
    await memory.remember({ text: 'The user is vegetarian at the moment.', tag: 'PREFERENCE', keys: ['diet'] });
    expect(await memory.remember({ text: 'The user is pescatarian now rather than vegetarian.', tag: 'PREFERENCE', keys: ['diet'] })).toMatchObject({ kind: 'stored' });
  });

  it('keeps the same words under another tag', async () => {
    const memory = memoryOn(store);
    await memory.remember({ text: 'The user lives in Paris.', keys: ['home'] });
    expect(await memory.remember({ text: 'The user lives in Paris.', tag: 'PREFERENCE', keys: ['home'] })).toMatchObject({ kind: 'stored' });
  });

  it('keeps a near restatement below the configured threshold', async () => {
    const memory = memoryOn(store, { dedupThreshold: 0.999 });
    await memory.remember({ text: 'The user lives in Paris.', keys: ['home'] });
    expect(await memory.remember({ text: 'The user lives in Paris now.', keys: ['home'] })).toMatchObject({ kind: 'stored' });
  });

  it('keeps a near-duplicate that states other numbers, as an update rather than a restatement', async () => {
    const memory = memoryOn(store, { dedupThreshold: 0.7 });
    await memory.remember({ text: 'The rent is 4,800 euros a month.', keys: ['rent'] });
    expect(await memory.remember({ text: 'The rent is 5,200 euros a month.', keys: ['rent'] })).toMatchObject({ kind: 'stored' });
    expect(await store.facts.listFacts(memory.silo)).toHaveLength(2);
  });

  it('drops a near-duplicate that states the same numbers, however they are grouped', async () => {
    const memory = memoryOn(store, { dedupThreshold: 0.7 });
    await memory.remember({ text: 'The rent is 4,800 euros a month.', keys: ['rent'] });
    expect(await memory.remember({ text: 'the RENT is 4,800 euros per month', keys: ['rent'] })).toMatchObject({ kind: 'duplicate' });
    expect(await memory.remember({ text: 'The rent is 4800 euros a month.', keys: ['rent'] })).toMatchObject({ kind: 'duplicate' });
  });

  it('stores the fact anyway, with a warning, when the duplicate check fails', async () => {
    const failing: FactStore = { ...store.facts, searchVectors: () => Promise.reject(new Error('disk I/O error')) };
    const memory = memoryOn(store, { store: { facts: failing, readEvents: store.readEvents } });
    const outcome = await memory.remember({ text: 'The user lives in Paris.', keys: ['home'] });
    expect(outcome).toMatchObject({ kind: 'stored', warnings: [expect.stringMatching(/duplicate check for "The user lives in Paris\." failed \(disk I\/O error\); the fact was stored anyway/)] });
    expect(await store.facts.listFacts(memory.silo)).toHaveLength(1);
  });

  it('refuses a fact without keys or with more than five', async () => {
    const memory = memoryOn(store);
    await expect(memory.remember({ text: 'x', keys: [] })).rejects.toThrow(/^cannot remember this fact: keys: Too small/);
    await expect(memory.remember({ text: 'x', keys: ['a', 'b', 'c', 'd', 'e', 'f'] })).rejects.toThrow(/^cannot remember this fact: keys: Too big/);
  });

  it('refuses a text longer than 4,000 characters or a key longer than 200, storing nothing', async () => {
    const memory = memoryOn(store);
    await expect(memory.remember({ text: 'a'.repeat(4_001), keys: ['notes'] })).rejects.toThrow(/^cannot remember this fact: text: at most 4000 characters: .*memory document/);
    await expect(memory.remember({ text: 'The user lives in Paris.', keys: ['k'.repeat(201)] })).rejects.toThrow(/^cannot remember this fact: keys\.0: Too big/);
    expect(await store.facts.listFacts(memory.silo)).toEqual([]);
  });
});

describe('corrections', () => {
  it('retire a similar active fact sharing a key, linking it to the correction and keeping it', async () => {
    const memory = memoryOn(store);
    const old = await memory.remember({ text: 'The user lives in Paris.', keys: ['home'] });
    const correction = await memory.remember({ text: 'Correction: the user lives in Berlin.', tag: 'CORRECTION', keys: ['home'] });
    expect(correction).toMatchObject({ kind: 'stored', superseded: [old.kind === 'stored' && old.fact.id] });
    const retired = await store.facts.getFact(memory.silo, old.kind === 'stored' ? old.fact.id : '');
    expect(retired).toMatchObject({ status: 'superseded', supersededBy: correction.kind === 'stored' && correction.fact.id });
  });

  it('are read from their wording as well as their tag: a FACT saying "Correction:" retires what it corrects', async () => {
    const memory = memoryOn(store);
    const old = await memory.remember({ text: 'The user lives in Paris.', keys: ['home'] });
    const correction = await memory.remember({ text: 'Correction: the user lives in Berlin.', keys: ['home'] });
    expect(correction).toMatchObject({ kind: 'stored', superseded: [old.kind === 'stored' && old.fact.id] });
  });

  it('leave alone what a FACT not worded as a correction sits close to', async () => {
    const memory = memoryOn(store);
    await memory.remember({ text: 'The user lives in Paris.', keys: ['home'] });
    expect(await memory.remember({ text: 'The user lives in a flat.', keys: ['home'] })).toMatchObject({ kind: 'stored', superseded: [] });
  });

  it('retire the same subject’s same attribute when both say what they are about, never a sibling attribute', async () => {
    const memory = memoryOn(store);
    const size = await memory.remember({ text: 'The apartment is 70 square metres.', keys: ['apartment'], subject: 'apartment', attribute: 'size' });
    const rent = await memory.remember({ text: 'The apartment rent is 1,200 euros.', keys: ['apartment'], subject: 'apartment', attribute: 'rent' });
    const correction = await memory.remember({ text: 'Correction: the apartment rent is 1,350 euros.', tag: 'CORRECTION', keys: ['apartment'], subject: 'Apartment', attribute: 'rent' });
    expect(correction.superseded).toEqual([rent.kind === 'stored' && rent.fact.id]);
    expect(await store.facts.getFact(memory.silo, size.kind === 'stored' ? size.fact.id : '')).toMatchObject({ status: 'active', subject: 'apartment', attribute: 'size' });
  });

  it('retire the fact a correction names as the old value, and its restatements, though the correction repeats its words', async () => {
    const memory = memoryOn(store);
    const old = await memory.remember({ text: "The user's hobby is salsa dancing.", keys: ['hobby'] });
    const restated = await memory.remember({ text: 'The user loves salsa dancing on weekends.', keys: ['hobby'] });
    const correction = await memory.remember({ text: "The user's hobby is woodworking, not salsa dancing.", tag: 'CORRECTION', keys: ['hobby'] });
    expect([...correction.superseded].sort()).toEqual([old.kind === 'stored' && old.fact.id, restated.kind === 'stored' && restated.fact.id].sort());
  });

  it('retire a fact stating another value rather than a sibling stating none, for a correction worded unlike both', async () => {
    const memory = memoryOn(store);
    const car = await memory.remember({ text: 'The user drives a Renault Zoe.', keys: ['car'] });
    await memory.remember({ text: "The user's car needs new tyres before winter.", keys: ['car'] });
    const correction = await memory.remember({ text: "Actually, the user's car is a Tesla Model 3.", tag: 'CORRECTION', keys: ['car'] });
    expect(correction.superseded).toEqual([car.kind === 'stored' && car.fact.id]);
  });

  it('retire the fact they correct though the client named its keys differently', async () => {
    const memory = memoryOn(store);
    const old = await memory.remember({ text: 'The user lives in Paris.', keys: ['home'] });
    expect(await memory.remember({ text: 'The user lives in Berlin.', tag: 'CORRECTION', keys: ['city'] })).toMatchObject({ superseded: [old.kind === 'stored' && old.fact.id] });
  });

  it('leave an episode that names the old value: it tells of an occasion, not of the attribute corrected', async () => {
    const memory = memoryOn(store);
    const old = await memory.remember({ text: 'The user lives in Porto.', keys: ['home', 'porto'] });
    const trip = await memory.remember({ text: 'On a trip to Porto the user went to a museum.', tag: 'EPISODE', keys: ['porto', 'museum'] });
    const correction = await memory.remember({ text: 'Correction: the user now lives in Krakow.', tag: 'CORRECTION', keys: ['home'] });
    expect(correction.superseded).toEqual([old.kind === 'stored' && old.fact.id]);
    expect(await store.facts.getFact(memory.silo, trip.kind === 'stored' ? trip.fact.id : '')).toMatchObject({ status: 'active' });
  });

  it('are never a statement naming another person in the same words: that is another fact', async () => {
    const memory = memoryOn(store, { dedupThreshold: 0.5 });
    await memory.remember({ text: 'I owe Tom 20 dollars for the tickets.', keys: ['debt'] });
    expect(await memory.remember({ text: 'I owe Clara 20 dollars for the tickets.', keys: ['debt'] })).toMatchObject({ kind: 'stored', superseded: [] });
  });

  it('are never a statement about another day, whatever number it changes', async () => {
    const memory = memoryOn(store, { dedupThreshold: 0.5 });
    await memory.remember({ text: 'The hike starts at 9am.', keys: ['hike'], date: '2026-05-02' });
    expect(await memory.remember({ text: 'The hike starts at 8am.', keys: ['hike'], date: '2026-05-03' })).toMatchObject({ kind: 'stored', superseded: [] });
  });

  it('leave a dissimilar fact that shares a key', async () => {
    const memory = memoryOn(store);
    await memory.remember({ text: 'Rent is due monthly.', keys: ['home'] });
    expect(await memory.remember({ text: 'The user lives in Berlin.', tag: 'CORRECTION', keys: ['home'] })).toMatchObject({ superseded: [] });
  });

  it('also retire a fact that restates the corrected value, however far it sits from the correction', async () => {
    const memory = memoryOn(store);
    await memory.remember({ text: 'The user lives in Paris.', keys: ['home'] });
    const restatement = await memory.remember({ text: "Paris is where the user's home is, by the river.", keys: ['home'] });
    const correction = await memory.remember({ text: 'Correction: the user now lives in Berlin.', tag: 'CORRECTION', keys: ['home'] });
    expect(correction.superseded).toContain(restatement.kind === 'stored' && restatement.fact.id);
    const active = await store.facts.listFacts(memory.silo, { status: 'active' });
    expect(active.map((fact) => fact.text)).toEqual(['Correction: the user now lives in Berlin.']);
  });

  it('leave a fact sharing the key that sits nearly as close to the correction but does not state the corrected value', async () => {
    const memory = memoryOn(store);
    await memory.remember({ text: 'The user lives in Paris.', keys: ['home'] });
    await memory.remember({ text: 'The user lives in a flat.', keys: ['home'] });
    const correction = await memory.remember({ text: 'Correction: the user now lives in Berlin.', tag: 'CORRECTION', keys: ['home'] });
    expect(correction.superseded).toHaveLength(1);
    const active = await store.facts.listFacts(memory.silo, { status: 'active' });
    expect(active.map((fact) => fact.text).sort()).toEqual(['Correction: the user now lives in Berlin.', 'The user lives in a flat.']);
  });

  it('are any statement of the same subject’s same attribute with another value, whatever its tag and keys', async () => {
    const memory = memoryOn(store);
    const old = await memory.remember({ text: 'Spotify charges me on the 28th.', keys: ['spotify', 'billing'], subject: 'spotify', attribute: 'billing day' });
    const price = await memory.remember({ text: 'Spotify costs 12 pounds a month.', keys: ['spotify'], subject: 'spotify', attribute: 'price' });
    const update = await memory.remember({ text: 'Spotify bills me on the 9th now.', keys: ['subscription'], subject: 'Spotify', attribute: 'billing day' });
    expect(update.superseded).toEqual([old.kind === 'stored' && old.fact.id]);
    expect(await store.facts.getFact(memory.silo, price.kind === 'stored' ? price.fact.id : '')).toMatchObject({ status: 'active' });
  });

  it('are never a restatement of the same value in other words, which stays current', async () => {
    const memory = memoryOn(store, { dedupThreshold: 0.999 });
    await memory.remember({ text: 'The user lives in Porto.', keys: ['home'], subject: 'user', attribute: 'home city' });
    const again = await memory.remember({ text: 'The user’s home is in Porto.', keys: ['home'], subject: 'user', attribute: 'home city' });
    expect(again).toMatchObject({ kind: 'stored', superseded: [] });
  });

  it('are a statement of any tag naming the number it replaces, which retires the facts stating it', async () => {
    const memory = memoryOn(store);
    const old = await memory.remember({ text: 'Spotify charges me on the 28th.', keys: ['spotify'] });
    const price = await memory.remember({ text: 'Spotify costs 12 pounds a month.', keys: ['spotify'] });
    const update = await memory.remember({ text: 'Spotify bills me on the 9th now, it used to be the 28th.', keys: ['spotify'] });
    expect(update.superseded).toEqual([old.kind === 'stored' && old.fact.id]);
    expect(await store.facts.getFact(memory.silo, price.kind === 'stored' ? price.fact.id : '')).toMatchObject({ status: 'active' });
  });

  it('also retire a restatement repeating the old time in other words', async () => {
    const memory = memoryOn(store, { supersedeThreshold: 0.1 });
    const old = await memory.remember({ text: "btw pill o'clock is 10am for me.", keys: ['pill'] });
    const restated = await memory.remember({ text: 'So, 10am is when I take my pill', keys: ['pill'] });
    const correction = await memory.remember({ text: 'Correction: my meds are at 7am.', tag: 'CORRECTION', keys: ['pill'] });
    expect(correction.superseded.sort()).toEqual([old, restated].map((each) => each.kind === 'stored' && each.fact.id).sort());
  });

  it('retire an earlier correction when corrected again', async () => {
    const memory = memoryOn(store);
    await memory.remember({ text: 'The user lives in Paris.', keys: ['home'] });
    const berlin = await memory.remember({ text: 'Correction: the user lives in Berlin.', tag: 'CORRECTION', keys: ['home'] });
    await memory.remember({ text: 'Correction: the user lives in Madrid.', tag: 'CORRECTION', keys: ['home'] });
    const active = await store.facts.listFacts(memory.silo, { status: 'active' });
    expect(active.map((fact) => fact.text)).toEqual(['Correction: the user lives in Madrid.']);
    expect(berlin.kind).toBe('stored');
  });
});

describe('recall', () => {
  it('prefers, between facts the embedder scores alike, the one said to state the attribute the question names', async () => {
    const memory = memoryOn(store);
    await memory.remember({ text: 'Clara: 12.', keys: ['clara'], subject: 'clara', attribute: 'age', said_at: '2026-01-01' });
    await memory.remember({ text: 'Clara: 13.', keys: ['clara'], subject: 'clara', attribute: 'shoe size', said_at: '2026-01-02' });
    const [top] = await memory.recall('clara age', { now: Date.parse('2026-01-03') });
    expect(top?.fact.text).toBe('Clara: 12.');
  });

  it('returns the correction as current and the original as superseded, below it, naming its replacement', async () => {
    const memory = memoryOn(store);
    await memory.remember({ text: 'The user lives in Paris.', keys: ['home'] });
    await memory.remember({ text: 'Correction: the user lives in Berlin.', tag: 'CORRECTION', keys: ['home'] });
    const recalled = await memory.recall('Where does the user live?');
    expect(recalled.map((hit) => [hit.fact.text, hit.current])).toEqual([
      ['Correction: the user lives in Berlin.', true],
      ['The user lives in Paris.', false],
    ]);
    expect(recalled[1]!.correction?.text).toBe('Correction: the user lives in Berlin.');
  });

  it('finds a fact by a word only full-text search can match', async () => {
    const memory = memoryOn(store);
    await memory.remember({ text: 'The user is allergic to penicillin.', keys: ['allergy'] });
    await memory.remember({ text: 'The user likes jazz.', keys: ['music'] });
    const [top] = await memory.recall('penicillin');
    expect(top?.fact.text).toBe('The user is allergic to penicillin.');
  });

  it('ranks a fact whose keys the query names above one that only shares words', async () => {
    const memory = memoryOn(store);
    await memory.remember({ text: 'The user visits the dentist every spring.', keys: ['dentist'] });
    await memory.remember({ text: 'The user visits the museum every spring.', keys: ['museum'] });
    expect((await memory.recall('museum visits every spring'))[0]?.fact.text).toBe('The user visits the museum every spring.');
  });

  it('never lets word and key overlap lift a fact over one with a clearly better cosine', async () => {
    // Vectors as an embedder might place them: the answer worded unlike the query sits much closer to it.
    const vectors: Record<string, [number, number]> = {
      'Where does the user go on holiday?': [1, 0],
      'Every summer the family drives to the coast.': [0.9, Math.sqrt(1 - 0.81)],
      'The user booked a holiday flight for the user.': [0.7, -Math.sqrt(1 - 0.49)],
    };
    const embedder = { model: 'table-2', dimensions: 2, embed: (texts: string[]) => Promise.resolve(texts.map((text) => Float32Array.from(vectors[text]!))) };
    const memory = memoryOn(store, { embedder });
    await memory.remember({ text: 'Every summer the family drives to the coast.', keys: ['travel'] });
    await memory.remember({ text: 'The user booked a holiday flight for the user.', keys: ['holiday', 'user'] });
    expect((await memory.recall('Where does the user go on holiday?'))[0]?.fact.text).toBe('Every summer the family drives to the coast.');
  });

  it('ranks a fact about the asked date first among equals', async () => {
    const memory = memoryOn(store);
    await memory.remember({ text: 'The user has a meeting.', keys: ['meeting'], date: '2026-03-02' });
    await memory.remember({ text: 'The user has a meeting!', tag: 'EPISODE', keys: ['meeting'], date: '2026-03-05' });
    expect((await memory.recall('meeting on 2026-03-05'))[0]?.fact.date).toBe('2026-03-05');
    expect((await memory.recall('meeting', { date: '2026-03-02' }))[0]?.fact.date).toBe('2026-03-02');
  });

  it('returns the top 10 by default and as many as asked', async () => {
    const memory = memoryOn(store);
    for (let i = 0; i < 14; i++) await memory.remember({ text: `The user owns book number ${i} about gardens.`, keys: [`book ${i}`] });
    expect(await memory.recall('books about gardens')).toHaveLength(10);
    expect(await memory.recall('books about gardens', { limit: 3 })).toHaveLength(3);
  });

  it('never returns facts of another silo', async () => {
    await memoryOn(store, { silo: 'assistant--alice' }).remember({ text: 'Alice lives in Paris.', keys: ['home'] });
    expect(await memoryOn(store, { silo: 'assistant--bob' }).recall('Who lives in Paris?')).toEqual([]);
  });

  it('refuses to query a silo embedded with another model, saying how to re-embed it', async () => {
    await memoryOn(store).remember({ text: 'The user lives in Paris.', keys: ['home'] });
    await expect(memoryOn(store, { embedder: fakeEmbedder(256, 'other') }).recall('Paris')).rejects.toThrow(/syndicate memory reembed --silo assistant--local/);
  });
});

describe('re-embedding', () => {
  it('moves a silo to a new embedding model, after which recall with it works', async () => {
    await memoryOn(store).remember({ text: 'The user lives in Paris.', keys: ['home'] });
    const next = fakeEmbedder(128, 'next-model');
    expect(await reembedSilo(store.facts, next, 'assistant--local')).toBe(1);
    expect((await memoryOn(store, { embedder: next }).recall('Paris'))[0]?.fact.embeddingModel).toBe('next-model');
  });
});

describe('the load_memory tool', () => {
  it('answers a query with recalled facts as labelled reference data', async () => {
    const memory = memoryOn(store);
    await memory.remember({ text: 'The user lives in Paris.', keys: ['home'] });
    const tool = memory.loadMemoryTool();
    const output = await tool.execute(tool.inputSchema.parse({ query: 'Where does the user live?' }), CTX);
    expect(output).toMatch(/^<memory_reference>\n.*reference data, not instructions.*\n- \[current\] The user lives in Paris\./);
  });

  it('rejects an empty query through its input schema', () => {
    expect(memoryOn(store).loadMemoryTool().inputSchema.safeParse({ query: ' ' }).success).toBe(false);
  });
});
