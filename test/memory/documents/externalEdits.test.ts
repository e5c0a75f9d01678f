import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { author, openFixture, SILO, type Fixture } from './setup.js';

// The default content store keeps plain markdown files that people edit in any editor.

describe('documents edited outside Syndicate', () => {
  let fx: Fixture;
  let bundleDir: string;

  beforeEach(async () => {
    fx = await openFixture('files');
    bundleDir = join(fx.memoryDir, SILO, 'notes');
  });
  afterEach(async () => fx.close());

  it('keeps each document as a plain markdown file under <memory>/<silo>/<bundle>/<path>', async () => {
    await fx.documents.write(SILO, { bundle: 'notes', path: 'people/ada', content: '# Ada\nLikes tea.\n', ...author });

    expect(await readFile(join(bundleDir, 'people', 'ada.md'), 'utf8')).toBe('# Ada\nLikes tea.\n');
    expect(await readFile(join(bundleDir, 'index.md'), 'utf8')).toContain('[Ada](people/ada.md)');
  });

  it('re-indexes a file edited in an editor and records the edit as a revision', async () => {
    await fx.documents.write(SILO, { bundle: 'notes', path: 'ada', content: '# Ada\nLikes tea.\n', ...author });
    await writeFile(join(bundleDir, 'ada.md'), '# Ada\nLikes coffee now.\n');

    const { hits } = await fx.documents.search(SILO, 'coffee');
    const [edit] = await fx.documents.history(SILO, 'notes', 'ada');

    expect(hits.map((hit) => hit.text)).toEqual(['# Ada\nLikes coffee now.']);
    expect(edit).toMatchObject({ actor: 'outside syndicate', reason: 'changed outside Syndicate', added: 1, removed: 1 });
    expect((await fx.documents.revision(SILO, edit!.id)).diff).toContain('-Likes tea.\n+Likes coffee now.');
    expect(await readFile(join(bundleDir, 'log.md'), 'utf8')).toContain('outside syndicate · changed outside Syndicate');
  });

  it('notices an edit that keeps the file size, after the file was already synced', async () => {
    await fx.documents.write(SILO, { bundle: 'notes', path: 'ada', content: 'tea\n', ...author });
    await fx.documents.sync(SILO);
    await writeFile(join(bundleDir, 'ada.md'), 'gin\n');

    expect(await fx.documents.sync(SILO)).toEqual({ indexed: ['notes/ada.md'], removed: [], problems: [] });
  });

  it('lists an edit made outside Syndicate in the history as soon as the history is asked for', async () => {
    await fx.documents.write(SILO, { bundle: 'notes', path: 'ada', content: 'tea\n', ...author });
    await writeFile(join(bundleDir, 'ada.md'), 'coffee\n');

    expect((await fx.documents.history(SILO, 'notes', 'ada')).map((r) => r.actor)).toEqual(['outside syndicate', 'agent:Scribe']);
  });

  it('indexes a file added outside Syndicate', async () => {
    await mkdir(join(bundleDir, 'deep'), { recursive: true });
    await writeFile(join(bundleDir, 'deep', 'new.md'), '# Dropped in\nBy git pull.\n');

    const { documents } = await fx.documents.list(SILO);

    expect(documents.map((d) => `${d.bundle}/${d.path} ${d.title}`)).toEqual(['notes/deep/new.md Dropped in']);
  });

  it('removes a file deleted outside Syndicate from the index, with a delete revision', async () => {
    await fx.documents.write(SILO, { bundle: 'notes', path: 'ada', content: '# Ada\nLikes tea.\n', ...author });
    await rm(join(bundleDir, 'ada.md'));

    const report = await fx.documents.sync(SILO);

    expect(report).toEqual({ indexed: [], removed: ['notes/ada.md'], problems: [] });
    expect((await fx.documents.search(SILO, 'tea')).hits).toEqual([]);
    expect((await fx.documents.history(SILO, 'notes', 'ada'))[0]).toMatchObject({ action: 'delete', actor: 'outside syndicate' });
  });

  it('reports a file whose new frontmatter is malformed, with file and line, without indexing it', async () => {
    await fx.documents.write(SILO, { bundle: 'notes', path: 'ada', content: '# Ada\n', ...author });
    await writeFile(join(bundleDir, 'ada.md'), '---\ntitle: [Ada\n---\n# Ada\n');

    const { problems } = await fx.documents.list(SILO);

    expect(problems).toEqual([expect.stringMatching(/^notes\/ada\.md:\d: malformed frontmatter: .* \(the file is not indexed until this is fixed\)$/)]);
    expect(await fx.documents.history(SILO, 'notes', 'ada')).toHaveLength(1);
  });

  it('reports files and folders whose names cannot be documents or bundles', async () => {
    await mkdir(join(fx.memoryDir, SILO, 'Bad Bundle'), { recursive: true });
    await writeFile(join(fx.memoryDir, SILO, 'Bad Bundle', 'a.md'), 'x');
    await mkdir(bundleDir, { recursive: true });
    await writeFile(join(bundleDir, 'what?.md'), 'x');

    const { problems } = await fx.documents.sync(SILO);

    expect(problems).toEqual([
      "folder 'Bad Bundle' is not a valid bundle name, so its files are not indexed: rename it (lowercase letters, digits, '_' or '-')",
      `notes/what?.md is not indexed: segment "what?.md" may only hold letters, digits, spaces, '.', '_' and '-', and may not start with '.'; rename the file`,
    ]);
  });

  it('gives an edit made outside Syndicate its own revision before a write on top of it', async () => {
    await fx.documents.write(SILO, { bundle: 'notes', path: 'ada', content: 'one\n', ...author });
    await writeFile(join(bundleDir, 'ada.md'), 'two\n');

    await fx.documents.write(SILO, { bundle: 'notes', path: 'ada', content: 'three\n', ...author });

    expect((await fx.documents.history(SILO, 'notes', 'ada')).map((r) => `${r.actor}`)).toEqual(['agent:Scribe', 'outside syndicate', 'agent:Scribe']);
  });

  it('refuses a silo id that would leave the memory folder', async () => {
    await expect(fx.content.read('..', { bundle: 'notes', path: 'a.md' })).rejects.toThrow('silo ".." does not name a folder under');
  });
});
