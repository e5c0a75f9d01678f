import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';

/** What a model is known by before its implementation is loaded. */
export type ModelIdentity = Pick<LanguageModelV3, 'provider' | 'modelId'>;

/**
 * A model with `identity` whose implementation `load` builds on first use: the first call (or the
 * first read of `supportedUrls`) starts the load, and every call shares its result, so concurrent
 * first calls build the model once. A failed load is forgotten, so the next call tries again.
 */
export function lazyModel(identity: ModelIdentity, load: () => Promise<LanguageModelV3>): LanguageModelV3 {
  let pending: Promise<LanguageModelV3> | undefined;
  const loaded = (): Promise<LanguageModelV3> =>
    (pending ??= Promise.resolve()
      .then(load)
      .catch((error: unknown) => {
        pending = undefined;
        throw error;
      }));

  return {
    specificationVersion: 'v3',
    provider: identity.provider,
    modelId: identity.modelId,
    // A getter, so that reading the identity alone loads nothing.
    get supportedUrls() {
      const urls = loaded().then((model) => model.supportedUrls);
      // Whoever reads it awaits it; this only keeps an unread failure from becoming an unhandled rejection.
      urls.catch(() => undefined);
      return urls;
    },
    doGenerate: async (options: LanguageModelV3CallOptions) => (await loaded()).doGenerate(options),
    doStream: async (options: LanguageModelV3CallOptions) => (await loaded()).doStream(options),
  };
}
