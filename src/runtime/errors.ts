// Errors that end a whole turn. Anything else thrown inside a tool or a delegated agent
// becomes an error result for the calling model, and the turn goes on.

export type TurnErrorCode = 'max_steps' | 'output_schema' | 'model_config' | 'cancelled';

export class TurnError extends Error {
  override readonly name = 'TurnError';
  constructor(
    readonly code: TurnErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function isTurnFatal(error: unknown, signal: AbortSignal): boolean {
  if (signal.aborted) return true;
  if (error instanceof TurnError) return true;
  return error instanceof Error && error.name === 'ModelConfigError';
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
