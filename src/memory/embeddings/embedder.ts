// The one embedding contract memory uses: facts, document passages and the embedding router.

export interface Embedder {
  /**
   * Names the model that produced a vector (for example 'use-lite-512' or 'gemini-embedding-001').
   * Stored with every vector, so a silo never mixes vectors from two models silently.
   */
  readonly model: string;
  readonly dimensions: number;
  /** One unit-length vector per text, in order. */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
}
