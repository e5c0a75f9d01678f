import { describe, expect, it } from 'vitest';
import { localEmbedder } from '../../../src/memory/embeddings/localEmbedder.js';

// The real USE-lite model, loaded from the npm package: no network.

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}

describe('local USE-lite embedder', () => {
  it('returns one 512-dimensional unit vector per text under the model id use-lite-512', async () => {
    const embedder = localEmbedder();
    const [vector] = await embedder.embed(['I live in Paris.']);
    expect([embedder.model, embedder.dimensions, vector!.length]).toEqual(['use-lite-512', 512, 512]);
    expect(Math.hypot(...vector!)).toBeCloseTo(1, 5);
  });

  it('places a restatement nearer than an unrelated sentence', async () => {
    const [fact, restated, unrelated] = await localEmbedder().embed(['I live in Paris.', 'My home is in Paris.', 'The invoice is overdue.']);
    expect(cosine(fact!, restated!)).toBeGreaterThan(cosine(fact!, unrelated!) + 0.3);
  });

  it('embeds more texts than one batch holds, keeping their order', async () => {
    const texts = Array.from({ length: 40 }, (_, i) => `note number ${i} about topic ${i % 7}`);
    const embedder = localEmbedder();
    const all = await embedder.embed(texts);
    const [last] = await embedder.embed([texts[39]!]);
    expect(all).toHaveLength(40);
    expect(cosine(all[39]!, last!)).toBeCloseTo(1, 4);
  });

  it('returns nothing for no texts', async () => {
    expect(await localEmbedder().embed([])).toEqual([]);
  });
});
