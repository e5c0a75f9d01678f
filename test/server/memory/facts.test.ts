import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siloFor } from '../../../src/core/silo.js';
import type { Embedder } from '../../../src/memory/embeddings/embedder.js';
import type { FactRecord, NewFact } from '../../../src/store/facts.js';
import type { Store } from '../../../src/store/store.js';
import { memoryRoutes } from '../../../src/server/memory/memoryRoutes.js';
import { startTestServer, type TestServer } from '../serverFixture.js';

// The facts API over real HTTP and a real SQLite store, serving the long-term Concierge example:
// each caller reaches only their own silo (siloFor(syndicate, user)); another user's fact is a 404.

let t: TestServer;
let store: Store;
let embedder: Embedder;

async function seed(user: string, text: string, overrides: Partial<NewFact> = {}): Promise<FactRecord> {
  const [embedding] = await embedder.embed([text]);
  return store.facts.insertFact(siloFor('Concierge', user), {
    text, tag: 'FACT', date: null, source: 'user', keys: ['home'], provenance: null, embedding: embedding!, embeddingModel: embedder.model, ...overrides,
  });
}

const facts = '/memory/concierge/facts';
const json = (body: unknown, method = 'PATCH'): RequestInit => ({ method, body: JSON.stringify(body) });
type Listed = { silo: string; facts: FactRecord[]; nextCursor: string | null };
type Problem = { status: number; detail: string; errors?: Array<{ pointer: string }> };

let paris: FactRecord;
let tea: FactRecord;
let coffee: FactRecord;
let bobs: FactRecord;

beforeAll(async () => {
  t = await startTestServer(['concierge.yaml', 'council.yaml'], { routes: memoryRoutes });
  store = await t.platform.store();
  embedder = t.registry.get('concierge')!.current!.compiled.embedder();
  paris = await seed('alice', 'The user lives in Paris.', { createdAt: 1_000, keys: ['paris', 'home'] });
  tea = await seed('alice', 'The user prefers green tea on flights.', { tag: 'PREFERENCE', createdAt: 2_000, keys: ['tea'] });
  coffee = await seed('alice', 'The user likes coffee in the morning.', { tag: 'PREFERENCE', createdAt: 3_000, keys: ['coffee'] });
  bobs = await seed('bob', 'The user lives in Oslo.', { createdAt: 1_500 });
}, 60_000);

afterAll(async () => {
  await t.server.close({ graceMs: 0 });
});

describe('GET /memory', () => {
  it("lists the caller's own silo of each syndicate that keeps long-term memory", async () => {
    const body = (await (await t.api('/memory')).json()) as { silos: unknown[] };
    expect(body.silos).toStrictEqual([{ syndicate: 'concierge', name: 'Concierge', silo: 'concierge--alice', facts: 3, active: 3, documents: 0 }]);
  });
});

describe('GET /memory/:syndicate/facts', () => {
  it("lists only the caller's facts, newest first", async () => {
    const body = (await (await t.api(facts)).json()) as Listed;
    expect(body.silo).toBe('concierge--alice');
    expect(body.facts.map((fact) => fact.id)).toStrictEqual([coffee.id, tea.id, paris.id]);
  });

  it('filters by tag and by text, ignoring case', async () => {
    const byTag = (await (await t.api(`${facts}?tag=PREFERENCE&text=GREEN`)).json()) as Listed;
    expect(byTag.facts.map((fact) => fact.id)).toStrictEqual([tea.id]);
  });

  it('pages with the cursor it gives out, without repeating or skipping a fact', async () => {
    const first = (await (await t.api(`${facts}?limit=2`)).json()) as Listed;
    const second = (await (await t.api(`${facts}?limit=2&cursor=${first.nextCursor}`)).json()) as Listed;
    expect([...first.facts, ...second.facts].map((fact) => fact.id)).toStrictEqual([coffee.id, tea.id, paris.id]);
    expect(second.nextCursor).toBeNull();
  });

  it('answers a cursor it did not give out with a 400 naming the field', async () => {
    const response = await t.api(`${facts}?cursor=bm9wZQ`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as Problem).errors?.[0]?.pointer).toBe('#/query/cursor');
  });

  it('answers a syndicate that keeps no long-term memory with a 404 naming the ones that do', async () => {
    const response = await t.api('/memory/council/facts');
    expect(response.status).toBe(404);
    expect(((await response.json()) as Problem).detail).toMatch(/keeps no long-term memory.*ones that do: concierge/);
  });

  it("shows a viewer their own silo, which is not another user's", async () => {
    const body = (await (await t.api(facts, { key: 'vera-key' })).json()) as Listed;
    expect(body).toStrictEqual({ silo: 'concierge--vera', facts: [], nextCursor: null });
  });
});

describe('GET /memory/:syndicate/facts/search', () => {
  it('recalls the best matching fact of the caller first, never another user\'s', async () => {
    const body = (await (await t.api(`${facts}/search?q=${encodeURIComponent('Where does the user live?')}`)).json()) as { facts: Array<{ fact: FactRecord; current: boolean }> };
    expect(body.facts[0]).toMatchObject({ fact: { id: paris.id }, current: true });
    expect(body.facts.map((hit) => hit.fact.silo)).not.toContain('concierge--bob');
  });

  it('refuses an empty query with a 400 naming it', async () => {
    const response = await t.api(`${facts}/search?q=`);
    expect(((await response.json()) as Problem).errors?.[0]?.pointer).toBe('#/query/q');
  });
});

describe('GET /memory/:syndicate/facts/:id', () => {
  it("answers another user's fact as missing", async () => {
    expect((await t.api(`${facts}/${bobs.id}`)).status).toBe(404);
  });

  it('shows a merged restatement in the chain of the fact it restates', async () => {
    const restatement = await seed('alice', "The user's home is in Paris.", { restates: paris.id, createdAt: 1_100 });
    const body = (await (await t.api(`${facts}/${paris.id}`)).json()) as { chain: { restatements: FactRecord[] } };
    expect(body.chain.restatements.map((fact) => fact.id)).toStrictEqual([restatement.id]);
    await store.facts.deleteFact(restatement.silo, restatement.id);
  });
});

describe('PATCH /memory/:syndicate/facts/:id', () => {
  it('stores an edit as a correction: the new version holds, the old one stays in its chain, superseded', async () => {
    const old = await seed('alice', 'The user flies with Lufthansa.', { keys: ['airline'] });
    const response = await t.api(`${facts}/${old.id}`, json({ text: 'The user flies with KLM.', keys: ['Airline', 'KLM'] }));
    expect(response.status).toBe(200);
    const { fact, previous } = (await response.json()) as { fact: FactRecord; previous: FactRecord };
    expect(fact).toMatchObject({ text: 'The user flies with KLM.', keys: ['airline', 'klm'], status: 'active', tag: 'FACT' });
    expect(previous).toMatchObject({ id: old.id, status: 'superseded', supersededBy: fact.id, text: 'The user flies with Lufthansa.' });
    const chain = (await (await t.api(`${facts}/${old.id}`)).json()) as { chain: { supersededBy: FactRecord[] } };
    expect(chain.chain.supersededBy.map((each) => each.id)).toStrictEqual([fact.id]);
    const back = (await (await t.api(`${facts}/${fact.id}`)).json()) as { chain: { supersedes: FactRecord[] } };
    expect(back.chain.supersedes.map((each) => each.id)).toStrictEqual([old.id]);
  });

  it('edits the tag and date alone, keeping the text', async () => {
    const old = await seed('alice', 'The user travels to Rome.', { keys: ['rome'] });
    const { fact } = (await (await t.api(`${facts}/${old.id}`, json({ tag: 'EPISODE', date: '2026-05-01' }))).json()) as { fact: FactRecord };
    expect(fact).toMatchObject({ text: 'The user travels to Rome.', tag: 'EPISODE', date: '2026-05-01', keys: ['rome'] });
  });

  it('refuses to edit a superseded fact with a 409 naming the fact that holds now', async () => {
    const old = await seed('alice', 'The user sits by the window.', { keys: ['seat'] });
    const { fact } = (await (await t.api(`${facts}/${old.id}`, json({ text: 'The user sits on the aisle.' }))).json()) as { fact: FactRecord };
    const response = await t.api(`${facts}/${old.id}`, json({ text: 'The user sits in the middle.' }));
    expect(response.status).toBe(409);
    expect(((await response.json()) as Problem).detail).toContain(fact.id);
  });

  it('stores nothing for an edit that changes nothing', async () => {
    const response = await t.api(`${facts}/${tea.id}`, json({ text: tea.text, tag: tea.tag }));
    expect(await response.json()).toMatchObject({ fact: { id: tea.id, status: 'active' }, previous: null });
  });

  it('refuses a bad field with a 400 naming it, and changes nothing', async () => {
    for (const body of [{ tag: 'GOSSIP' }, { keys: [] }, { date: '2026-02-30' }, { text: '   ' }, { colour: 'red' }, {}]) {
      const response = await t.api(`${facts}/${coffee.id}`, json(body));
      expect(response.status).toBe(400);
      expect(((await response.json()) as Problem).errors?.[0]?.pointer).toMatch(/^#\/body/);
    }
    expect(await store.facts.getFact(coffee.silo, coffee.id)).toStrictEqual(coffee);
  });

  it("answers another user's fact as missing and leaves it as it was", async () => {
    expect((await t.api(`${facts}/${bobs.id}`, json({ text: 'The user lives in Bergen.' }))).status).toBe(404);
    expect(await store.facts.getFact(bobs.silo, bobs.id)).toStrictEqual(bobs);
  });

  it('refuses a viewer with a 403', async () => {
    expect((await t.api(`${facts}/${coffee.id}`, { ...json({ text: 'x' }), key: 'vera-key' })).status).toBe(403);
  });
});

describe('DELETE /memory/:syndicate/facts/:id', () => {
  it('deletes a fact of the caller for good', async () => {
    const doomed = await seed('alice', 'The user is allergic to peanuts.', { keys: ['peanuts'] });
    expect((await t.api(`${facts}/${doomed.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await store.facts.getFact(doomed.silo, doomed.id)).toBeUndefined();
    expect((await t.api(`${facts}/${doomed.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it("answers another user's fact as missing and keeps it", async () => {
    expect((await t.api(`${facts}/${bobs.id}`, { method: 'DELETE' })).status).toBe(404);
    expect(await store.facts.getFact(bobs.silo, bobs.id)).toStrictEqual(bobs);
  });
});
