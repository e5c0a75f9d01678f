import type { EmbeddingModelV3 } from '@ai-sdk/provider';
import { causeCode } from '../../models/causeCode.js';
import { ModelConfigError } from '../../models/errors.js';
import type { Embedder } from './embedder.js';
import { unitVector } from './unitVector.js';

// An embedder served by a provider through the AI SDK. The SDK is imported, and the model built,
// by the first embed call, so configuring one costs nothing until memory is used; a setup problem
// (missing key, unconfigured server) fails that call with a ModelConfigError saying what to set.

export interface ProviderEmbedderSpec {
  /** Recorded with every vector, e.g. 'gemini-embedding-001' or 'ollama/nomic-embed-text'. */
  model: string;
  /**
   * Known in advance for the cloud models; for an Ollama or OpenAI-compatible model it is learnt
   * from the first response (0 until then). Stores size vectors by their length, not by this.
   */
  dimensions?: number;
  /** Builds the SDK model, or says why it cannot (a missing key, an unset base URL). */
  load(): Promise<EmbeddingModelV3>;
  /** Said when nothing listens at the server's address. */
  unreachable: string;
  /** Retries per request after a failure (the SDK's default is 2). */
  maxRetries?: number;
}

const CONNECTION_FAILURES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);
// Providers take 100 (Gemini) to 2048 (OpenAI) texts per request; the SDK splits larger lists.
// Two requests in flight keep a large re-embedding moving without tripping rate limits.
const PARALLEL_CALLS = 2;

export function providerEmbedder(spec: ProviderEmbedderSpec): Embedder {
  let loading: Promise<EmbeddingModelV3> | undefined;
  let learnt = spec.dimensions ?? 0;
  return {
    model: spec.model,
    get dimensions() {
      return learnt;
    },
    async embed(texts, signal) {
      if (texts.length === 0) return [];
      loading ??= spec.load();
      loading.catch(() => (loading = undefined));
      const [model, { embedMany, RetryError }] = await Promise.all([loading, import('ai')]);
      let embeddings: number[][];
      try {
        ({ embeddings } = await embedMany({ model, values: [...texts], maxParallelCalls: PARALLEL_CALLS, maxRetries: spec.maxRetries, abortSignal: signal }));
      } catch (error) {
        // After retries the SDK throws a RetryError whose lastError holds the socket failure.
        const last = RetryError.isInstance(error) ? error.lastError : error;
        if (causeCode(last, CONNECTION_FAILURES) !== undefined) throw new ModelConfigError(spec.unreachable, { cause: error });
        throw error;
      }
      const vectors = embeddings.map((values) => unitVector(values, spec.model));
      learnt = vectors[0]!.length;
      return vectors;
    },
  };
}
