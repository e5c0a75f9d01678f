import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DocumentError, MAX_DOCUMENT_BYTES } from '../../../src/memory/documents/index.js';
import type { Embedder } from '../../../src/memory/embeddings/embedder.js';
import { author, openFixture, SILO, type ContentKind, type Fixture } from './setup.js';

const PLAN = ['---', 'title: Apollo plan', 'owner: ada', '---', '# Apollo', '', 'Launch in March. See [budget](budget.md) and [[crm/acme]].', ''].join('\n');

describe.each<ContentKind>(['files', 'database'])('documents with %s content', (kind) => {
  let fx: Fixture;

  beforeEach(async () => {
    fx = await openFixture(kind);
  });
  afterEach(async () => fx.close());

  it('writes a document and reads it back with its title and frontmatter', async () => {
    const written = await fx.documents.write(SILO, { bundle: 'projects', path: 'apollo', content: PLAN, ...author });

    const read = await fx.documents.read(SILO, 'projects', 'apollo.md');

    expect(written).toEqual({ bundle: 'projects', path: 'apollo.md', revision: expect.any(Number) });
    expect(read).toEqual({ bundle: 'projects', path: 'apollo.md', title: 'Apollo plan', frontmatter: { title: 'Apollo plan', owner: 'ada' }, content: PLAN, problems: [] });
  });

  it('records who, why, when and the diff of every write', async () => {
    await fx.documents.write(SILO, { bundle: 'projects', path: 'apollo', content: 'one\n', ...author });
    await fx.documents.write(SILO, { bundle: 'projects', path: 'apollo', content: 'two\n', actor: 'cli', reason: 'correct it' });

    const [latest, first] = await fx.documents.history(SILO, 'projects', 'apollo');
    const revision = await fx.documents.revision(SILO, latest!.id);

    expect(latest).toMatchObject({ action: 'write', actor: 'cli', reason: 'correct it', added: 1, removed: 1, at: expect.any(Number) });
    expect(first).toMatchObject({ action: 'write', actor: 'agent:Scribe', reason: 'keeping notes', added: 1, removed: 0 });
    expect(revision.diff).toBe('--- a/apollo.md\n+++ b/apollo.md\n@@ -1,1 +1,1 @@\n-one\n+two\n');
  });

  it('records no revision when the content is unchanged', async () => {
    await fx.documents.write(SILO, { bundle: 'projects', path: 'apollo', content: PLAN, ...author });
    const again = await fx.documents.write(SILO, { bundle: 'projects', path: 'apollo', content: PLAN, ...author });
    expect(again.revision).toBeUndefined();
    expect(await fx.documents.history(SILO, 'projects', 'apollo')).toHaveLength(1);
  });

  it('keeps an index.md listing the bundle and a log.md of every change', async () => {
    await fx.documents.write(SILO, { bundle: 'projects', path: 'apollo', content: PLAN, ...author });
    await fx.documents.write(SILO, { bundle: 'projects', path: 'gemini', content: '# Gemini\n', ...author });
    await fx.documents.delete(SILO, { bundle: 'projects', path: 'gemini', actor: 'cli', reason: 'cancelled' });

    const index = await fx.documents.read(SILO, 'projects', 'index.md');
    const log = await fx.documents.read(SILO, 'projects', 'log.md');

    expect(index.content).toContain('- [Apollo plan](apollo.md)');
    expect(index.content).not.toContain('gemini');
    expect(log.content.split('\n').filter((line) => line.startsWith('- '))).toEqual([
      expect.stringMatching(/^- 2026-01-02T03:04:\d\dZ · write \[apollo\.md\]\(apollo\.md\) · agent:Scribe · keeping notes \(revision \d+\)$/),
      expect.stringMatching(/· write \[gemini\.md\]\(gemini\.md\) · agent:Scribe · keeping notes/),
      expect.stringMatching(/· delete `gemini\.md` · cli · cancelled/),
    ]);
  });

  it('loses no log line when several writes to one bundle run at once', async () => {
    await Promise.all(Array.from({ length: 8 }, (_, i) => fx.documents.write(SILO, { bundle: 'projects', path: `doc-${i}`, content: `# Doc ${i}\n`, ...author })));

    const log = await fx.documents.read(SILO, 'projects', 'log.md');
    const index = await fx.documents.read(SILO, 'projects', 'index.md');

    expect(log.content.split('\n').filter((line) => line.startsWith('- '))).toHaveLength(8);
    expect(index.content.split('\n').filter((line) => line.startsWith('- '))).toHaveLength(8);
  });

  it('refuses to write index.md or log.md, which it maintains itself', async () => {
    await expect(fx.documents.write(SILO, { bundle: 'projects', path: 'index.md', content: 'x', ...author })).rejects.toThrow("'index.md' is maintained by Syndicate");
  });

  it('refuses a path that escapes its bundle and stores nothing', async () => {
    await expect(fx.documents.write(SILO, { bundle: 'projects', path: '../other/x.md', content: 'x', ...author })).rejects.toThrow(
      `document path "../other/x.md" in bundle 'projects' is refused: it escapes its bundle`,
    );
    expect((await fx.documents.list(SILO)).documents).toEqual([]);
  });

  it('refuses a document over the 1 MiB limit and keeps the stored one', async () => {
    await fx.documents.write(SILO, { bundle: 'projects', path: 'big', content: 'small\n', ...author });
    const huge = 'x'.repeat(MAX_DOCUMENT_BYTES + 1);

    const attempt = fx.documents.write(SILO, { bundle: 'projects', path: 'big', content: huge, ...author });

    await expect(attempt).rejects.toThrow('projects/big.md is 1.0 MiB: documents are limited to 1 MiB; split it into several documents');
    await expect(attempt).rejects.toBeInstanceOf(DocumentError);
    expect((await fx.documents.read(SILO, 'projects', 'big')).content).toBe('small\n');
  });

  it('refuses malformed frontmatter with the file and line, and keeps the stored document', async () => {
    await fx.documents.write(SILO, { bundle: 'projects', path: 'apollo', content: PLAN, ...author });
    const broken = '---\ntitle: Apollo\nowner: [ada\n---\nbody\n';

    await expect(fx.documents.write(SILO, { bundle: 'projects', path: 'apollo', content: broken, ...author })).rejects.toThrow(
      /^projects\/apollo\.md:\d: malformed frontmatter: /,
    );
    expect((await fx.documents.read(SILO, 'projects', 'apollo')).content).toBe(PLAN);
    expect(await fx.documents.history(SILO, 'projects', 'apollo')).toHaveLength(1);
  });

  it('leaves the document untouched when the embedder fails', async () => {
    await fx.documents.write(SILO, { bundle: 'projects', path: 'apollo', content: PLAN, ...author });
    const failing: Embedder = { model: 'fake-bow-256', dimensions: 256, embed: () => Promise.reject(new Error('embedding service down')) };

    await expect(fx.withEmbedder(failing).write(SILO, { bundle: 'projects', path: 'apollo', content: '# New\n', ...author })).rejects.toThrow('embedding service down');

    expect((await fx.documents.read(SILO, 'projects', 'apollo')).content).toBe(PLAN);
    expect(await fx.documents.history(SILO, 'projects', 'apollo')).toHaveLength(1);
  });

  it('deletes a document, recording the deletion as a revision', async () => {
    await fx.documents.write(SILO, { bundle: 'projects', path: 'apollo', content: PLAN, ...author });

    const deleted = await fx.documents.delete(SILO, { bundle: 'projects', path: 'apollo', actor: 'cli', reason: 'done' });

    await expect(fx.documents.read(SILO, 'projects', 'apollo')).rejects.toThrow('there is no document projects/apollo.md');
    expect((await fx.documents.list(SILO)).documents).toEqual([]);
    expect((await fx.documents.revision(SILO, deleted.revision!)).content).toBeNull();
    expect((await fx.documents.history(SILO, 'projects', 'apollo')).map((r) => r.action)).toEqual(['delete', 'write']);
  });

  it('erases a document with its history when asked, keeping no copy of its content', async () => {
    await fx.documents.write(SILO, { bundle: 'projects', path: 'apollo', content: 'secret one\n', ...author });
    await fx.documents.write(SILO, { bundle: 'projects', path: 'apollo', content: 'secret two\n', ...author });

    const erased = await fx.documents.delete(SILO, { bundle: 'projects', path: 'apollo', actor: 'cli', reason: 'user asked', erase: true });

    const history = await fx.documents.history(SILO, 'projects', 'apollo');
    expect(history).toEqual([expect.objectContaining({ id: erased.revision, action: 'delete', reason: 'erased with its history: user asked', added: 0, removed: 0 })]);
    expect(JSON.stringify(await fx.documents.revision(SILO, erased.revision!))).not.toContain('secret');
  });

  it('refuses to delete a document that does not exist', async () => {
    await expect(fx.documents.delete(SILO, { bundle: 'projects', path: 'nope', ...author })).rejects.toThrow('there is no document projects/nope.md to delete');
  });

  it('rolls a document back to an earlier revision, as a new revision', async () => {
    const first = await fx.documents.write(SILO, { bundle: 'projects', path: 'apollo', content: 'first\n', ...author });
    await fx.documents.write(SILO, { bundle: 'projects', path: 'apollo', content: 'second\n', ...author });

    const rolled = await fx.documents.rollback(SILO, { bundle: 'projects', path: 'apollo', revision: first.revision!, actor: 'cli', reason: 'second was wrong' });

    expect((await fx.documents.read(SILO, 'projects', 'apollo')).content).toBe('first\n');
    expect((await fx.documents.revision(SILO, rolled.revision!)).reason).toBe(`rollback to revision ${first.revision}: second was wrong`);
  });

  it('restores a deleted document by rolling back to a revision before the delete', async () => {
    const first = await fx.documents.write(SILO, { bundle: 'projects', path: 'apollo', content: PLAN, ...author });
    await fx.documents.delete(SILO, { bundle: 'projects', path: 'apollo', ...author });

    await fx.documents.rollback(SILO, { bundle: 'projects', path: 'apollo', revision: first.revision!, ...author });

    expect((await fx.documents.read(SILO, 'projects', 'apollo')).content).toBe(PLAN);
  });

  it('refuses to roll a document back to another document’s revision', async () => {
    const other = await fx.documents.write(SILO, { bundle: 'projects', path: 'gemini', content: 'g\n', ...author });
    await expect(fx.documents.rollback(SILO, { bundle: 'projects', path: 'apollo', revision: other.revision!, ...author })).rejects.toThrow(
      `revision ${other.revision} is of projects/gemini.md, not projects/apollo.md`,
    );
  });

  it('diffs the contents of two revisions', async () => {
    const a = await fx.documents.write(SILO, { bundle: 'projects', path: 'apollo', content: 'a\nb\nc\n', ...author });
    await fx.documents.write(SILO, { bundle: 'projects', path: 'apollo', content: 'a\nx\nc\n', ...author });
    const c = await fx.documents.write(SILO, { bundle: 'projects', path: 'apollo', content: 'a\nx\nc\nd\n', ...author });

    expect(await fx.documents.diff(SILO, a.revision!, c.revision!)).toBe('--- a/apollo.md\n+++ b/apollo.md\n@@ -1,3 +1,4 @@\n a\n-b\n+x\n c\n+d\n');
  });

  it('follows links out of a document and into it, marking targets that do not exist', async () => {
    await fx.documents.write(SILO, { bundle: 'projects', path: 'apollo', content: PLAN, ...author });
    await fx.documents.write(SILO, { bundle: 'projects', path: 'budget', content: 'Money for [Apollo](apollo.md).\n', ...author });

    const follow = await fx.documents.follow(SILO, 'projects', 'apollo');

    expect(follow.out).toEqual([
      { document: { bundle: 'projects', path: 'budget.md' }, label: 'budget', line: 7, exists: true },
      { document: { bundle: 'crm', path: 'acme.md' }, label: 'crm/acme', line: 7, exists: false },
    ]);
    expect(follow.in).toEqual([{ document: { bundle: 'projects', path: 'budget.md' }, label: 'Apollo', line: 1, exists: true }]);
  });

  it('reconciles the link graph when a document changes', async () => {
    await fx.documents.write(SILO, { bundle: 'projects', path: 'apollo', content: PLAN, ...author });
    await fx.documents.write(SILO, { bundle: 'projects', path: 'apollo', content: '# Apollo\nNow see [[projects/gemini]].\n', ...author });

    const graph = await fx.documents.graph(SILO);

    expect(graph.edges).toEqual([{ from: 'projects/apollo.md', to: 'projects/gemini.md', label: 'projects/gemini' }]);
    expect(graph.nodes).toEqual([
      { bundle: 'projects', path: 'apollo.md', title: 'Apollo' },
      { bundle: 'projects', path: 'gemini.md', title: undefined },
    ]);
  });

  it('refuses every call without a valid silo', async () => {
    await expect(fx.documents.write('', { bundle: 'projects', path: 'a', content: 'x', ...author })).rejects.toThrow('memory access refused: a valid silo id is required');
    await expect(fx.documents.search(undefined as unknown as string, 'x')).rejects.toThrow('memory access refused');
    await expect(fx.documents.list('a/b')).rejects.toThrow('memory access refused');
  });

  it('keeps silos apart', async () => {
    await fx.documents.write(SILO, { bundle: 'projects', path: 'apollo', content: PLAN, ...author });
    await expect(fx.documents.read('other--local', 'projects', 'apollo')).rejects.toThrow('there is no document');
    expect((await fx.documents.search('other--local', 'Apollo launch March')).hits).toEqual([]);
  });

  it('purges a silo completely', async () => {
    await fx.documents.write(SILO, { bundle: 'projects', path: 'apollo', content: PLAN, ...author });
    await fx.documents.write('other--local', { bundle: 'projects', path: 'apollo', content: PLAN, ...author });

    await fx.documents.purge(SILO);

    expect((await fx.documents.list(SILO)).documents).toEqual([]);
    expect(await fx.content.list(SILO)).toEqual([]);
    expect(await fx.documents.history(SILO, 'projects', 'apollo')).toEqual([]);
    expect(await fx.store.documents.listSilos()).toEqual(['other--local']);
  });
});
