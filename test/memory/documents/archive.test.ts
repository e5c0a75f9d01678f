import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_DOCUMENT_BYTES } from '../../../src/memory/documents/index.js';
import { author, openFixture, SILO, type Fixture } from './setup.js';

const OTHER = 'other--local';
const importer = { actor: 'cli', reason: 'restore backup' };

function archive(files: Record<string, string | Uint8Array>): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(files).map(([name, content]) => [name, typeof content === 'string' ? strToU8(content) : content])));
}

describe('bundle archives', () => {
  let fx: Fixture;

  beforeEach(async () => {
    fx = await openFixture('files');
    await fx.documents.write(SILO, { bundle: 'notes', path: 'ada', content: '# Ada\nSee [[notes/people/bob]].\n', ...author });
    await fx.documents.write(SILO, { bundle: 'notes', path: 'people/bob', content: '---\ntitle: Bob\n---\nBob likes tea.\n', ...author });
  });
  afterEach(async () => fx.close());

  it('exports a bundle as a zip of its markdown files under the bundle folder', async () => {
    const zip = await fx.documents.exportBundle(SILO, 'notes');

    expect(Object.keys(unzipSync(zip)).sort()).toEqual(['notes/ada.md', 'notes/index.md', 'notes/log.md', 'notes/people/bob.md']);
  });

  it('imports an exported bundle into another silo, rebuilding index, links and search', async () => {
    const report = await fx.documents.importBundle(OTHER, await fx.documents.exportBundle(SILO, 'notes'), importer);

    expect(report).toEqual({
      bundle: 'notes', imported: true, added: ['ada.md', 'people/bob.md'], collisions: [], unchanged: [], skipped: ['index.md', 'log.md'], problems: [],
    });
    expect((await fx.documents.read(OTHER, 'notes', 'people/bob')).content).toBe('---\ntitle: Bob\n---\nBob likes tea.\n');
    expect((await fx.documents.follow(OTHER, 'notes', 'people/bob')).in).toHaveLength(1);
    expect((await fx.documents.search(OTHER, 'bob tea')).hits[0]).toMatchObject({ path: 'people/bob.md', text: 'Bob likes tea.' });
    expect((await fx.documents.history(OTHER, 'notes', 'ada'))[0]).toMatchObject({ actor: 'cli', reason: 'restore backup' });
  });

  it('imports into the bundle named in the options', async () => {
    const report = await fx.documents.importBundle(SILO, await fx.documents.exportBundle(SILO, 'notes'), { ...importer, bundle: 'copy' });
    expect(report.bundle).toBe('copy');
    expect((await fx.documents.list(SILO, 'copy')).documents.map((d) => d.path)).toEqual(['ada.md', 'people/bob.md']);
  });

  it('reports collisions and stores nothing unless told to overwrite', async () => {
    const zip = archive({ 'notes/ada.md': '# Ada\nChanged.\n', 'notes/people/bob.md': '---\ntitle: Bob\n---\nBob likes tea.\n', 'notes/carol.md': '# Carol\n' });

    const refused = await fx.documents.importBundle(SILO, zip, importer);

    expect(refused).toMatchObject({ imported: false, added: ['carol.md'], collisions: ['ada.md'], unchanged: ['people/bob.md'], problems: [] });
    expect((await fx.documents.read(SILO, 'notes', 'ada')).content).toBe('# Ada\nSee [[notes/people/bob]].\n');
    await expect(fx.documents.read(SILO, 'notes', 'carol')).rejects.toThrow('there is no document');

    const forced = await fx.documents.importBundle(SILO, zip, { ...importer, overwrite: true });

    expect(forced.imported).toBe(true);
    expect((await fx.documents.read(SILO, 'notes', 'ada')).content).toBe('# Ada\nChanged.\n');
    expect((await fx.documents.history(SILO, 'notes', 'ada'))[0]).toMatchObject({ actor: 'cli', added: 1, removed: 1 });
  });

  it('checks everything on a dry run and stores nothing', async () => {
    const report = await fx.documents.importBundle(SILO, archive({ 'notes/carol.md': '# Carol\n' }), { ...importer, dryRun: true });
    expect(report).toMatchObject({ imported: false, added: ['carol.md'] });
    expect((await fx.documents.list(SILO, 'notes')).documents).toHaveLength(2);
  });

  it('refuses the whole archive when any entry is bad, listing every problem', async () => {
    const zip = archive({
      'notes/good.md': '# Fine\n',
      'notes/../../escape.md': 'x',
      'notes/broken.md': '---\ntitle: [x\n---\n',
      'notes/binary.md': new Uint8Array([0xff, 0xfe, 0x00]),
      'notes/picture.png': 'png',
      'loose.md': 'x',
      'crm/acme.md': '# Acme\n',
    });

    const report = await fx.documents.importBundle(SILO, zip, importer);

    expect(report.imported).toBe(false);
    expect(report.problems).toEqual([
      "notes/../../escape.md: it escapes its bundle ('..' segments are not allowed)",
      'notes/binary.md: is not UTF-8 text',
      "notes/picture.png: only markdown documents ('.md') can be imported",
      'loose.md: entries must sit in a folder named after the bundle (e.g. notes/plan.md)',
      'the archive holds several bundles (crm, notes); import one bundle at a time',
      expect.stringMatching(/^notes\/broken\.md:2: malformed frontmatter: /),
    ]);
    expect((await fx.documents.list(SILO)).documents.map((d) => d.path)).toEqual(['ada.md', 'people/bob.md']);
  });

  it('reports malformed frontmatter in an entry with the entry name and line', async () => {
    const report = await fx.documents.importBundle(SILO, archive({ 'notes/broken.md': '---\ntitle: [x\n---\n' }), importer);
    expect(report.problems).toEqual([expect.stringMatching(/^notes\/broken\.md:\d: malformed frontmatter: /)]);
    expect(report.imported).toBe(false);
  });

  it('refuses an entry over the document limit without inflating it', async () => {
    const report = await fx.documents.importBundle(SILO, archive({ 'notes/huge.md': 'x'.repeat(MAX_DOCUMENT_BYTES + 1) }), importer);
    expect(report.problems).toEqual(['notes/huge.md: is 1.0 MiB, over the 1 MiB limit for a document']);
  });

  it('refuses data that is not a zip archive', async () => {
    const report = await fx.documents.importBundle(SILO, strToU8('not a zip'), importer);
    expect(report.problems).toEqual([expect.stringMatching(/^the archive cannot be read as a zip file: /)]);
    expect(report.imported).toBe(false);
  });
});
