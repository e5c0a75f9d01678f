import {
  attemptTimeoutCause,
  classifyError,
  exhaustedMessage,
  formatDuration,
  interruptedMessage,
  ModelCallError,
  retryDelay,
  retryStatusMessage,
  sleep,
  type RetryCause,
} from '../models/retry.js';
import { childAbort } from './abort.js';
import type { CompiledAgent } from './compileSyndicate.js';
import type { TurnContext } from './turnContext.js';

// The retry loop around one model call: each attempt gets its own no-progress timer, a
// transient failure is retried after a backoff the user is told about, and whatever
// finally fails names the provider, the model and the cause.

/** One attempt of a model call, as the code driving the model sees it. */
export interface ModelAttempt {
  /** Aborts with the turn, or when the attempt makes no progress for `attemptTimeoutMs`. */
  readonly signal: AbortSignal;
  /** Restarts the no-progress timer (called for every stream part). */
  progress(): void;
  /** Output reached the turn's listeners: from now on this attempt cannot be retried. */
  outputStarted(): void;
}

interface RunningAttempt extends ModelAttempt {
  readonly timedOut: boolean;
  readonly hasOutput: boolean;
  end(failed: boolean): void;
}

function startAttempt(turnSignal: AbortSignal, timeoutMs: number): RunningAttempt {
  const { controller, unlink } = childAbort(turnSignal);
  let timedOut = false;
  let hasOutput = false;
  const timer = setTimeout(() => {
    timedOut = true;
    const reason = new Error(`no response for ${formatDuration(timeoutMs)}`);
    reason.name = 'TimeoutError';
    controller.abort(reason);
  }, timeoutMs);
  return {
    signal: controller.signal,
    progress: () => void timer.refresh(),
    outputStarted: () => void (hasOutput = true),
    get timedOut() {
      return timedOut;
    },
    get hasOutput() {
      return hasOutput;
    },
    end(failed) {
      clearTimeout(timer);
      unlink();
      // Tears down whatever the failed attempt left open (a half-read stream) before the next one starts.
      if (failed && !controller.signal.aborted) controller.abort();
    },
  };
}

/** The cause to retry after, or throws: the error itself when retrying cannot help, a ModelCallError when it may not. */
function retryCauseOf(error: unknown, attempt: RunningAttempt, agent: CompiledAgent, number: number, total: number, timeoutMs: number): RetryCause {
  const cause = attempt.timedOut ? attemptTimeoutCause(timeoutMs) : classifyError(error, Date.now());
  if (cause === undefined) throw error;
  // Deltas already shown cannot be taken back, and a new attempt would not repeat them word
  // for word: the user would see two different answers spliced together.
  if (attempt.hasOutput) throw new ModelCallError(interruptedMessage(agent.model, cause), { cause: error });
  if (number >= total) throw new ModelCallError(exhaustedMessage(agent.model, number, cause), { cause: error });
  return cause;
}

/** Runs `run` until it succeeds, fails for good, or the turn's signal aborts (then the signal's reason wins). */
export async function withRetries<T>(turn: TurnContext, agent: CompiledAgent, depth: number, run: (attempt: ModelAttempt) => Promise<T>): Promise<T> {
  const policy = turn.retry;
  const total = policy.maxRetries + 1;
  for (let number = 1; ; number++) {
    const attempt = startAttempt(turn.signal, policy.attemptTimeoutMs);
    let cause: RetryCause;
    let failed = true;
    try {
      const result = await run(attempt);
      failed = false;
      return result;
    } catch (error) {
      if (turn.signal.aborted) throw error;
      cause = retryCauseOf(error, attempt, agent, number, total, policy.attemptTimeoutMs);
    } finally {
      attempt.end(failed);
    }
    const delay = retryDelay(policy, cause, number - 1, Math.random);
    turn.emit(agent.name, depth, { type: 'status', message: retryStatusMessage(agent.model.modelId, cause, delay, number + 1, total) });
    await sleep(delay, turn.signal);
  }
}
