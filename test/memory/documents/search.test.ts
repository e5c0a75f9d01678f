import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeEmbedder } from '../fakeEmbedder.js';
import { author, openFixture, SILO, type Fixture } from './setup.js';

const GARDEN = [
  '# Garden', //                        1
  '## Tomato sun', //                   2
  'Tomatoes love full sun.', //         3
  '', //                                4
  '## Tomato water', //                 5
  'Tomatoes drink water daily.', //     6
  '', //                                7
  '## Roses', //                        8
  'Roses prefer some shade.', //        9
  '',
].join('\n');

const FINANCE = ['# Finance', 'The quarterly budget is 4,800 euros.', ''].join('\n');

function orchardNotes(): string {
  return '# Orchard\n' + Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? `## Kiwi ${i}\nKiwi harvest note ${i}.\n` : `## Other ${i}\nApples and pears.\n`)).join('\n');
}

describe('document search', () => {
  let fx: Fixture;

  beforeEach(async () => {
    // Wide, so unrelated words seldom share a slot of the bag-of-words vector.
    fx = await openFixture('files', fakeEmbedder(4096, 'fake-bow-4096'));
    await fx.documents.write(SILO, { bundle: 'home', path: 'garden', content: GARDEN, ...author });
    await fx.documents.write(SILO, { bundle: 'work', path: 'finance', content: FINANCE, ...author });
  });
  afterEach(async () => fx.close());

  it('returns the relevant passage with its bundle, path, line span and score', async () => {
    const { hits } = await fx.documents.search(SILO, 'what is the quarterly budget');

    expect(hits).toEqual([
      { bundle: 'work', path: 'finance.md', title: 'Finance', startLine: 1, endLine: 2, score: expect.any(Number), text: '# Finance\nThe quarterly budget is 4,800 euros.' },
    ]);
    expect(hits[0]!.score).toBeGreaterThan(0.2);
    expect(hits[0]!.score).toBeLessThanOrEqual(1);
  });

  it('returns nothing rather than an irrelevant passage', async () => {
    expect((await fx.documents.search(SILO, 'quantum chromodynamics lattice')).hits).toEqual([]);
  });

  it('applies a stricter threshold when asked', async () => {
    expect((await fx.documents.search(SILO, 'roses shade', { threshold: 0.99 })).hits).toEqual([]);
    expect((await fx.documents.search(SILO, 'roses shade')).hits).toHaveLength(1);
  });

  it('merges adjacent passages into one hit spanning both', async () => {
    const { hits } = await fx.documents.search(SILO, 'tomatoes sun water');

    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ path: 'garden.md', startLine: 1, endLine: 6 });
    expect(hits[0]!.text).toBe('# Garden\n## Tomato sun\nTomatoes love full sun.\n\n## Tomato water\nTomatoes drink water daily.');
  });

  it('caps the passages taken from one document', async () => {
    await fx.documents.write(SILO, { bundle: 'home', path: 'orchard', content: orchardNotes(), ...author });

    expect((await fx.documents.search(SILO, 'kiwi harvest')).hits).toHaveLength(2);
    expect((await fx.documents.search(SILO, 'kiwi harvest', { perDocument: 3 })).hits).toHaveLength(3);
  });

  it('searches only the bundle asked for', async () => {
    expect((await fx.documents.search(SILO, 'quarterly budget', { bundle: 'home' })).hits).toEqual([]);
    expect((await fx.documents.search(SILO, 'quarterly budget', { bundle: 'work' })).hits).toHaveLength(1);
  });

  it('finds nothing in an empty silo without calling the embedder', async () => {
    const calls: string[][] = [];
    const counting = fakeEmbedder();
    const documents = fx.withEmbedder({ ...counting, embed: (texts) => (calls.push([...texts]), counting.embed(texts)) });

    expect((await documents.search('empty--local', 'anything at all')).hits).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('refuses a query with no words', async () => {
    await expect(fx.documents.search(SILO, '?! ...')).rejects.toThrow('search query "?! ..." has no words to search for');
  });

  it('refuses to compare vectors of different models and names the command that re-embeds', async () => {
    const other = fx.withEmbedder(fakeEmbedder(4096, 'other-model'));

    await expect(other.search(SILO, 'budget')).rejects.toThrow(
      `documents in silo '${SILO}' were embedded with fake-bow-4096, but this syndicate embeds with other-model; run \`syndicate memory reembed --silo ${SILO}\``,
    );
    expect(await other.reembed(SILO)).toBe(2);
    expect((await other.search(SILO, 'quarterly budget')).hits).toHaveLength(1);
  });
});
