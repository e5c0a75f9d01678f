import type { Embedder } from '../../src/memory/embeddings/embedder.js';

// A deterministic bag-of-words embedder for tests: texts sharing words have similar vectors,
// a restatement with the same words scores ~1, and nothing loads a model.
export function fakeEmbedder(dimensions = 256, model = 'fake-bow-256'): Embedder {
  return {
    model,
    dimensions,
    embed(texts) {
      return Promise.resolve(texts.map((text) => embedOne(text, dimensions)));
    },
  };
}

function embedOne(text: string, dimensions: number): Float32Array {
  const vector = new Float32Array(dimensions);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const slot = hash(word) % dimensions;
    vector[slot] = (vector[slot] ?? 0) + 1;
  }
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm) || 1;
  return vector.map((value) => value / norm);
}

function hash(word: string): number {
  let h = 2166136261;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
  return h >>> 0;
}
