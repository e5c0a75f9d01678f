import { APICallError } from '@ai-sdk/provider';
import { ModelConfigError } from './errors.js';
import { causeCode } from './causeCode.js';

// When and how long to wait before calling a model again. Pure: the clock and the random
// source are parameters, so every decision is testable without waiting. The loop that
// uses these lives in the runtime, where it can tell the user what is happening.

export interface RetryPolicy {
  /** Further attempts after the first one fails with a transient error. */
  maxRetries: number;
  /** Backoff ceiling of the first retry; it doubles with every retry after that. */
  initialDelayMs: number;
  /** No wait is longer than this, a server's Retry-After included. */
  maxDelayMs: number;
  /**
   * How long one attempt may go without progress before it is aborted and retried: the
   * whole call without streaming, the gap between stream parts with it (so a long answer
   * that keeps streaming is never cut off).
   */
  attemptTimeoutMs: number;
}

/**
 * 60 s without progress: a provider that accepts the connection and never answers costs at most
 * 4 minutes (4 attempts) instead of 8, and a streamed answer is never cut while it streams.
 */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 60_000;

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = {
  maxRetries: 3,
  initialDelayMs: 1_000,
  maxDelayMs: 60_000,
  attemptTimeoutMs: DEFAULT_ATTEMPT_TIMEOUT_MS,
};

/** The defaults with `overrides` applied; throws a RangeError for a negative or non-finite value. */
export function retryPolicyOf(overrides: Partial<RetryPolicy> | undefined): RetryPolicy {
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY };
  for (const key of Object.keys(policy) as Array<keyof RetryPolicy>) {
    const value = overrides?.[key];
    if (value === undefined) continue;
    if (!Number.isFinite(value) || value < 0) throw new RangeError(`retry.${key} must be a finite number >= 0, got ${value}`);
    policy[key] = value;
  }
  if (!Number.isInteger(policy.maxRetries)) throw new RangeError(`retry.maxRetries must be a whole number, got ${policy.maxRetries}`);
  if (policy.attemptTimeoutMs === 0) throw new RangeError('retry.attemptTimeoutMs must be greater than 0');
  return policy;
}

export type RetryCauseKind = 'rate_limit' | 'server' | 'timeout' | 'network';

/** Why a failed attempt may be retried. */
export interface RetryCause {
  kind: RetryCauseKind;
  /** HTTP status or error code, shown in parentheses. */
  detail?: string;
  /** What the server asked for, already converted to milliseconds from now. */
  retryAfterMs?: number;
  /** The provider's own words, when it gave any. */
  message?: string;
}

// A refused connection is not here: for a local server it is a configuration problem
// (already a ModelConfigError), and for a cloud API it does not fix itself in seconds.
const NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ECONNABORTED',
  'ConnectionClosed',
  'UND_ERR_SOCKET',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Error objects some providers send inside a stream (Anthropic's SSE `error` event). */
const STREAM_ERROR_TYPES: Readonly<Record<string, RetryCauseKind>> = {
  overloaded_error: 'server',
  api_error: 'server',
  rate_limit_error: 'rate_limit',
};

function networkCode(error: unknown): string | undefined {
  return causeCode(error, NETWORK_CODES);
}

/** The message of an Error or of an error-shaped object a provider put in a stream. */
function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : typeof error === 'object' ? JSON.stringify(error) : String(error);
}

function statusCause(status: number, headers: Record<string, string> | undefined, message: string, now: number): RetryCause | undefined {
  if (status === 429) return { kind: 'rate_limit', detail: '429', retryAfterMs: parseRetryAfter(headers, now), message };
  if (status >= 500 && status <= 599) return { kind: 'server', detail: String(status), retryAfterMs: parseRetryAfter(headers, now), message };
  if (status === 408) return { kind: 'timeout', detail: '408', message };
  return undefined;
}

/** The retry cause of a failed attempt, or undefined when trying again would fail the same way. */
export function classifyError(error: unknown, now: number): RetryCause | undefined {
  if (error instanceof ModelConfigError) return undefined;
  if (APICallError.isInstance(error) && error.statusCode !== undefined) {
    return statusCause(error.statusCode, error.responseHeaders, error.message, now);
  }
  const code = networkCode(error);
  if (code !== undefined) return { kind: 'network', detail: code, message: messageOf(error) };
  if (error instanceof Error) {
    return error.name === 'TimeoutError' ? { kind: 'timeout', message: error.message } : undefined;
  }
  const type = (error as { type?: unknown } | null)?.type;
  if (typeof type === 'string' && Object.hasOwn(STREAM_ERROR_TYPES, type)) {
    return { kind: STREAM_ERROR_TYPES[type]!, detail: type, message: messageOf(error) };
  }
  return undefined;
}

/** The cause of an attempt the runtime aborted for making no progress. */
export function attemptTimeoutCause(attemptTimeoutMs: number): RetryCause {
  return { kind: 'timeout', detail: `no response for ${formatDuration(attemptTimeoutMs)}` };
}

function headerOf(headers: Record<string, string>, name: string): string | undefined {
  for (const key of Object.keys(headers)) if (key.toLowerCase() === name) return headers[key];
  return undefined;
}

/**
 * The wait a server asked for, in milliseconds from `now`: `retry-after-ms`, else
 * `retry-after` as seconds or as an HTTP date. Undefined when absent or unreadable.
 */
export function parseRetryAfter(headers: Record<string, string> | undefined, now: number): number | undefined {
  if (!headers) return undefined;
  const ms = headerOf(headers, 'retry-after-ms')?.trim();
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headerOf(headers, 'retry-after')?.trim();
  if (!value) return undefined;
  if (Number.isFinite(Number(value))) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Exponential backoff with full jitter: uniform in [0, ceiling), the ceiling doubling per
 * retry. Full jitter spreads clients that failed together, so they do not retry together.
 * `retryIndex` is 0 for the first retry.
 */
export function backoffDelay(policy: RetryPolicy, retryIndex: number, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** retryIndex);
  return Math.floor(random() * ceiling);
}

/** The wait before retry number `retryIndex` (0-based): the server's Retry-After when it gave one, capped. */
export function retryDelay(policy: RetryPolicy, cause: RetryCause, retryIndex: number, random: () => number): number {
  if (cause.retryAfterMs !== undefined) return Math.min(cause.retryAfterMs, policy.maxDelayMs);
  return backoffDelay(policy, retryIndex, random);
}

const LABELS: Readonly<Record<RetryCauseKind, string>> = {
  rate_limit: 'rate limited',
  server: 'server error',
  timeout: 'timed out',
  network: 'network error',
};

/** "340 ms", "2.0 s" */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function label(cause: RetryCause, extra: string | undefined): string {
  const details = [cause.detail, extra].filter((detail): detail is string => detail !== undefined);
  return details.length === 0 ? LABELS[cause.kind] : `${LABELS[cause.kind]} (${details.join('; ')})`;
}

/** "rate limited (429)" */
function describeCause(cause: RetryCause): string {
  return label(cause, undefined);
}

/** "rate limited (429; last Retry-After 30.0 s): <the provider's message>" */
function explainCause(cause: RetryCause): string {
  const text = label(cause, cause.retryAfterMs === undefined ? undefined : `last Retry-After ${formatDuration(cause.retryAfterMs)}`);
  return cause.message ? `${text}: ${cause.message}` : text;
}

/** "gemini-2.5-flash: rate limited (429), retrying in 2.0 s (attempt 2 of 4)" */
export function retryStatusMessage(modelId: string, cause: RetryCause, delayMs: number, nextAttempt: number, totalAttempts: number): string {
  return `${modelId}: ${describeCause(cause)}, retrying in ${formatDuration(delayMs)} (attempt ${nextAttempt} of ${totalAttempts})`;
}

export interface ModelIdentity {
  provider: string;
  modelId: string;
}

/** "anthropic.messages claude-sonnet-4-5 failed after 4 attempts: rate limited (429; last Retry-After 30.0 s): …" */
export function exhaustedMessage(model: ModelIdentity, attempts: number, cause: RetryCause): string {
  return `${model.provider} ${model.modelId} failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${explainCause(cause)}`;
}

export function interruptedMessage(model: ModelIdentity, cause: RetryCause): string {
  return `${model.provider} ${model.modelId} failed after its answer had started streaming, so it was not retried: ${explainCause(cause)}`;
}

/** A model call that failed for a transient reason and will not be tried again. Not turn-fatal: a delegated agent's failure goes back to its parent. */
export class ModelCallError extends Error {
  override readonly name = 'ModelCallError';
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
