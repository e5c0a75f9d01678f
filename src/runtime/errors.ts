import { ModelConfigError } from '../models/errors.js';
import { UserInputRequired } from '../tools/builtin/askUser.js';

// Errors that end a whole turn. Anything else thrown inside a tool or a delegated agent
// becomes an error result for the calling model, and the turn goes on.

export type TurnErrorCode = 'max_steps' | 'output_schema' | 'deadline' | 'store_error';

/**
 * Why a turn was cancelled, given as the reason of the AbortSignal that cancels it: the turn ends
 * cancelled, its error saying why (a server shutting down, a newer message interrupting it).
 */
export class CancelReason extends Error {
  override readonly name = 'CancelReason';
  constructor(
    message: string,
    /** The server is shutting down: the turn-end says `interrupted`, so a client can tell it from a cancel someone asked for. */
    readonly shutdown = false,
  ) {
    super(message);
  }
}

export class TurnError extends Error {
  override readonly name = 'TurnError';
  constructor(
    readonly code: TurnErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A model that cannot run as configured (no key, no server) ends the turn: it would fail the same way on every retry.
 * A question for the user (ask_user, a remote agent waiting for input) ends it too, from any depth: only the user can answer it.
 */
export function isTurnFatal(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || error instanceof TurnError || error instanceof ModelConfigError || error instanceof UserInputRequired;
}
