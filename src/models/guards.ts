import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { ModelConfigError } from './errors.js';
import type { ModelIdentity } from './lazyModel.js';
import { causeCode } from './causeCode.js';

// Wrappers that turn setup problems into one clear error at the first model call, so that
// resolving (and validating) a syndicate never needs keys or running servers.

/** A model with `identity` whose every call fails with `message`. */
export function unconfiguredModel(identity: ModelIdentity, message: string): LanguageModelV3 {
  const fail = (): Promise<never> => Promise.reject(new ModelConfigError(message));
  return {
    specificationVersion: 'v3',
    provider: identity.provider,
    modelId: identity.modelId,
    supportedUrls: {},
    doGenerate: fail,
    doStream: fail,
  };
}

const CONNECTION_FAILURES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);

function isConnectionFailure(error: unknown): boolean {
  return causeCode(error, CONNECTION_FAILURES) !== undefined;
}

/** The same model, with every error its calls throw (or reject with) replaced by `map(error)`. */
export function mapCallErrors(model: LanguageModelV3, map: (error: unknown) => unknown): LanguageModelV3 {
  const rethrow = (error: unknown): never => {
    throw map(error);
  };
  return {
    specificationVersion: 'v3',
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    doGenerate: (options: LanguageModelV3CallOptions) => Promise.resolve(model.doGenerate(options)).catch(rethrow),
    doStream: (options: LanguageModelV3CallOptions) => Promise.resolve(model.doStream(options)).catch(rethrow),
  };
}

/** Rethrows "nothing listens there" as a ModelConfigError with `message`; other errors pass through untouched. */
export function withUnreachableHint(model: LanguageModelV3, message: string): LanguageModelV3 {
  return mapCallErrors(model, (error) => (isConnectionFailure(error) ? new ModelConfigError(message, { cause: error }) : error));
}
