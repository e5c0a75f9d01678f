import { formatDuration } from '../models/retry.js';
import { childAbort } from './abort.js';
import { TurnError } from './errors.js';

export interface TurnSignal {
  /** Aborts when the caller cancels or the deadline passes; on a deadline its reason is a TurnError with code 'deadline'. */
  signal: AbortSignal;
  /** Stops the deadline timer once the turn is over. */
  clear(): void;
}

/** Throws a RangeError for a deadline that is not a positive finite number of milliseconds. */
export function checkDeadline(deadlineMs: number | undefined): void {
  if (deadlineMs !== undefined && !(Number.isFinite(deadlineMs) && deadlineMs > 0)) {
    throw new RangeError(`deadlineMs must be a positive number of milliseconds, got ${deadlineMs}`);
  }
}

/**
 * The signal a turn runs under: the caller's, combined with a deadline when one is set.
 * The deadline aborts with its own reason so the turn can tell "took too long" (failed)
 * from "the user stopped it" (cancelled).
 */
export function turnSignal(callerSignal: AbortSignal | undefined, deadlineMs: number | undefined): TurnSignal {
  const caller = callerSignal ?? new AbortController().signal;
  if (deadlineMs === undefined) return { signal: caller, clear: () => undefined };
  const { controller, unlink } = childAbort(caller);
  const timer = setTimeout(() => controller.abort(new TurnError('deadline', `The turn passed its ${formatDuration(deadlineMs)} deadline and was stopped.`)), deadlineMs);
  return {
    signal: controller.signal,
    clear: () => {
      clearTimeout(timer);
      unlink();
    },
  };
}

/** The deadline error when that is why `signal` aborted. */
export function deadlineError(signal: AbortSignal): TurnError | undefined {
  const reason: unknown = signal.reason;
  return signal.aborted && reason instanceof TurnError && reason.code === 'deadline' ? reason : undefined;
}
