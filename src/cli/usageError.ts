/** A mistake in how the command was invoked: reported without a stack, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
