/** A model cannot be used as configured (missing key, unknown id, unreachable local server). Never retried. */
export class ModelConfigError extends Error {
  override readonly name = 'ModelConfigError';
}
