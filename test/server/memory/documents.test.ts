import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryRoutes } from '../../../src/server/memory/memoryRoutes.js';
import { startTestServer, type TestServer } from '../serverFixture.js';

// The documents API over real HTTP, a real SQLite store and real document files, serving the
// long-term Concierge example: each caller reaches only the bundles of their own silo.

let t: TestServer;

const doc = (path: string, bundle = 'trips') => `/memory/concierge/documents/${bundle}/${encodeURIComponent(path)}`;
const put = (content: string, key = 'alice-key'): RequestInit & { key: string } => ({ method: 'PUT', body: JSON.stringify({ content }), key });
type Change = { bundle: string; path: string; revision: number | null };
type Problem = { status: number; detail: string; errors?: Array<{ pointer: string }> };

beforeAll(async () => {
  t = await startTestServer(['concierge.yaml'], { routes: memoryRoutes });
}, 60_000);

afterAll(async () => {
  await t.server.close({ graceMs: 0 });
});

describe('writing and reading', () => {
  it('writes a document as a new revision and reads it back', async () => {
    const written = (await (await t.api(doc('rome/plan.md'), put('# Rome plan\n\nFly on Friday.\n'))).json()) as Change;
    expect(written).toMatchObject({ bundle: 'trips', path: 'rome/plan.md', revision: expect.any(Number) });
    const read = (await (await t.api(doc('rome/plan.md'))).json()) as { title: string; content: string };
    expect(read).toMatchObject({ title: 'Rome plan', content: '# Rome plan\n\nFly on Friday.\n' });
  });

  it('records no revision for a write that changes nothing', async () => {
    await t.api(doc('same.md'), put('# Same\n'));
    expect(await (await t.api(doc('same.md'), put('# Same\n'))).json()).toMatchObject({ revision: null });
  });

  it("never shows one user's document to another", async () => {
    await t.api(doc('secret.md'), put('# Bob only\n', 'bob-key'));
    expect((await t.api(doc('secret.md'))).status).toBe(404);
    expect((await t.api(doc('secret.md'), { key: 'bob-key' })).status).toBe(200);
  });

  it('refuses a path that would leave its bundle with a 400 naming it, and writes nothing', async () => {
    const response = await t.api(doc('../escape.md'), put('# Out\n'));
    expect(response.status).toBe(400);
    expect(((await response.json()) as Problem).errors?.[0]?.pointer).toBe('#/params/path');
    const listed = (await (await t.api('/memory/concierge/documents')).json()) as { bundles: Array<{ name: string }> };
    expect(JSON.stringify(listed)).not.toContain('escape');
  });

  it('refuses a bad bundle name and a body without content with 400s naming them', async () => {
    expect(((await (await t.api(doc('a.md', 'Not A Bundle'), put('# A\n'))).json()) as Problem).errors?.[0]?.pointer).toBe('#/params/bundle');
    const response = await t.api(doc('a.md'), { method: 'PUT', body: JSON.stringify({ text: '# A\n' }) });
    expect(((await response.json()) as Problem).errors?.map((error) => error.pointer)).toContain('#/body/content');
    expect((await t.api(doc('a.md'))).status).toBe(404);
  });

  it('refuses malformed frontmatter with a 422 saying why, and stores nothing', async () => {
    const response = await t.api(doc('broken.md'), put('---\ntitle: [unclosed\n'));
    expect(response.status).toBe(422);
    expect(((await response.json()) as Problem).detail).toMatch(/frontmatter/);
    expect((await t.api(doc('broken.md'))).status).toBe(404);
  });

  it('refuses a viewer a write with a 403', async () => {
    expect((await t.api(doc('vera.md'), put('# Vera\n', 'vera-key'))).status).toBe(403);
  });
});

describe('the bundle tree', () => {
  it('lists the bundles as trees of folders and documents, folders first', async () => {
    await t.api(doc('index-of-trips.md', 'tree'), put('# Trips\n'));
    await t.api(doc('2026/lisbon.md', 'tree'), put('# Lisbon\n'));
    const body = (await (await t.api('/memory/concierge/documents?bundle=tree')).json()) as { bundles: unknown };
    expect(body.bundles).toMatchObject([
      {
        name: 'tree',
        tree: [
          { kind: 'folder', name: '2026', path: '2026', children: [{ kind: 'document', name: 'lisbon.md', path: '2026/lisbon.md', title: 'Lisbon' }] },
          { kind: 'document', name: 'index-of-trips.md', title: 'Trips', children: [] },
        ],
      },
    ]);
  });
});

describe('history, diff and rollback', () => {
  it('lists revisions newest first, diffs two of them, and rolls back as a new revision', async () => {
    const first = (await (await t.api(doc('packing.md'), put('# Packing\n\n- passport\n'))).json()) as Change;
    const second = (await (await t.api(doc('packing.md'), put('# Packing\n\n- passport\n- charger\n'))).json()) as Change;
    const history = (await (await t.api(`${doc('packing.md')}/revisions`)).json()) as { revisions: Array<{ id: number; actor: string; added: number }> };
    expect(history.revisions.map((revision) => revision.id)).toStrictEqual([second.revision, first.revision]);
    expect(history.revisions[0]).toMatchObject({ actor: 'user:alice', added: 1 });
    const diff = (await (await t.api(`${doc('packing.md')}/diff?from=${first.revision}&to=${second.revision}`)).json()) as { diff: string };
    expect(diff.diff).toContain('+- charger');
    const rolled = (await (await t.api(`${doc('packing.md')}/rollback`, { method: 'POST', body: JSON.stringify({ revision: first.revision }) })).json()) as Change;
    expect(rolled.revision).toBeGreaterThan(second.revision!);
    expect(((await (await t.api(doc('packing.md'))).json()) as { content: string }).content).toBe('# Packing\n\n- passport\n');
    const revision = (await (await t.api(`/memory/concierge/revisions/${rolled.revision}`)).json()) as { revision: { reason: string; content: string } };
    expect(revision.revision.reason).toBe(`rollback to revision ${first.revision}: rolled back over the API`);
  });

  it("answers a diff against another document's revision with a 404", async () => {
    const other = (await (await t.api(doc('other.md'), put('# Other\n'))).json()) as Change;
    const mine = (await (await t.api(doc('mine.md'), put('# Mine\n'))).json()) as Change;
    expect((await t.api(`${doc('mine.md')}/diff?from=${other.revision}&to=${mine.revision}`)).status).toBe(404);
  });

  it("answers another user's revision as missing", async () => {
    const bobs = (await (await t.api(doc('bob.md'), put('# Bob\n', 'bob-key'))).json()) as Change;
    expect((await t.api(`/memory/concierge/revisions/${bobs.revision}`)).status).toBe(404);
  });

  it('deletes a document as a revision that can be rolled back', async () => {
    const written = (await (await t.api(doc('doomed.md'), put('# Doomed\n'))).json()) as Change;
    const deleted = await t.api(doc('doomed.md'), { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect((await t.api(doc('doomed.md'))).status).toBe(404);
    expect((await t.api(doc('doomed.md'), { method: 'DELETE' })).status).toBe(404);
    await t.api(`${doc('doomed.md')}/rollback`, { method: 'POST', body: JSON.stringify({ revision: written.revision }) });
    expect((await t.api(doc('doomed.md'))).status).toBe(200);
  });
});

describe('the link graph', () => {
  it('gives the documents as nodes and their links as edges, a missing target with a null title', async () => {
    await t.api(doc('a.md', 'graph'), put('# A\n\nSee [B](b.md) and [[graph/ghost]].\n'));
    await t.api(doc('b.md', 'graph'), put('# B\n'));
    const body = (await (await t.api('/memory/concierge/graph?bundle=graph')).json()) as { nodes: Array<{ key: string; title: string | null }>; edges: unknown[] };
    expect(body.nodes.sort((x, y) => x.key.localeCompare(y.key))).toMatchObject([
      { key: 'graph/a.md', title: 'A' },
      { key: 'graph/b.md', title: 'B' },
      { key: 'graph/ghost.md', title: null },
    ]);
    expect(body.edges).toEqual(expect.arrayContaining([{ from: 'graph/a.md', to: 'graph/b.md', label: 'B' }, { from: 'graph/a.md', to: 'graph/ghost.md', label: 'graph/ghost' }]));
  });
});
