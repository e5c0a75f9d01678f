import type { Embedder } from '../memory/embeddings/embedder.js';

// `dispatch.classifier: embedding`: routes a message to the specialist whose description it is
// most similar to, with no model call. Route vectors are computed once, on first use.

export interface RouteMatch {
  route: string;
  similarity: number;
}

export interface EmbeddingRouter {
  readonly minSimilarity: number;
  /** The closest route, whatever its similarity: the caller compares it with minSimilarity. */
  closest(input: string, signal: AbortSignal): Promise<RouteMatch>;
}

export interface RouteDescription {
  name: string;
  description: string;
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

export function createEmbeddingRouter(embedder: Embedder, routes: readonly RouteDescription[], minSimilarity: number): EmbeddingRouter {
  let routeVectors: Promise<Float32Array[]> | undefined;
  return {
    minSimilarity,
    async closest(input, signal) {
      // A failed first embedding is retried by the next turn rather than cached.
      routeVectors ??= embedder.embed(routes.map((route) => `${route.name}: ${route.description}`), signal).catch((error: unknown) => {
        routeVectors = undefined;
        throw error;
      });
      const [vectors, [query]] = await Promise.all([routeVectors, embedder.embed([input], signal)]);
      let best: RouteMatch = { route: routes[0]!.name, similarity: Number.NEGATIVE_INFINITY };
      vectors.forEach((vector, index) => {
        // Unit vectors (the Embedder contract): the dot product is the cosine similarity.
        const similarity = dot(vector, query!);
        if (similarity > best.similarity) best = { route: routes[index]!.name, similarity };
      });
      return best;
    },
  };
}
