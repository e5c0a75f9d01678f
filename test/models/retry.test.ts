import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { ModelConfigError } from '../../src/models/errors.js';
import {
  backoffDelay,
  classifyError,
  DEFAULT_RETRY_POLICY,
  exhaustedMessage,
  parseRetryAfter,
  retryDelay,
  retryPolicyOf,
  retryStatusMessage,
  sleep,
  type RetryPolicy,
} from '../../src/models/retry.js';

const NOW = Date.parse('2026-03-04T10:00:00Z');
const POLICY: RetryPolicy = { maxRetries: 3, initialDelayMs: 1_000, maxDelayMs: 60_000, attemptTimeoutMs: 120_000 };

function apiError(statusCode: number | undefined, responseHeaders?: Record<string, string>, cause?: unknown): APICallError {
  return new APICallError({ message: `HTTP ${statusCode}`, url: 'https://api.example/v1', requestBodyValues: {}, statusCode, responseHeaders, cause });
}

function withCode(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('classifyError', () => {
  it('treats a 429 as a rate limit and keeps its Retry-After', () => {
    expect(classifyError(apiError(429, { 'retry-after': '30' }), NOW)).toMatchObject({ kind: 'rate_limit', detail: '429', retryAfterMs: 30_000 });
  });

  it('treats any 5xx as a server error', () => {
    expect(classifyError(apiError(503), NOW)).toMatchObject({ kind: 'server', detail: '503' });
    expect(classifyError(apiError(529), NOW)).toMatchObject({ kind: 'server', detail: '529' });
  });

  it('does not retry a client error such as 400 or 401', () => {
    expect(classifyError(apiError(400), NOW)).toBeUndefined();
    expect(classifyError(apiError(401), NOW)).toBeUndefined();
  });

  it('treats a reset connection anywhere in the cause chain as a network error', () => {
    const error = apiError(undefined, undefined, new TypeError('fetch failed', { cause: withCode('socket hang up', 'ECONNRESET') }));

    expect(classifyError(error, NOW)).toMatchObject({ kind: 'network', detail: 'ECONNRESET' });
  });

  it('does not retry a refused connection', () => {
    expect(classifyError(apiError(undefined, undefined, withCode('connect ECONNREFUSED', 'ECONNREFUSED')), NOW)).toBeUndefined();
  });

  it('never retries a ModelConfigError', () => {
    expect(classifyError(new ModelConfigError('ANTHROPIC_API_KEY is not set'), NOW)).toBeUndefined();
  });

  it('treats a TimeoutError as a timeout', () => {
    const error = Object.assign(new Error('took too long'), { name: 'TimeoutError' });

    expect(classifyError(error, NOW)).toMatchObject({ kind: 'timeout', message: 'took too long' });
  });

  it('treats an overloaded error object sent inside a stream as a server error', () => {
    expect(classifyError({ type: 'overloaded_error', message: 'Overloaded' }, NOW)).toMatchObject({ kind: 'server', detail: 'overloaded_error', message: 'Overloaded' });
  });

  it('does not retry an ordinary error', () => {
    expect(classifyError(new Error('bad tool schema'), NOW)).toBeUndefined();
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds', () => {
    expect(parseRetryAfter({ 'retry-after': '2.5' }, NOW)).toBe(2_500);
  });

  it('reads an HTTP date relative to the given clock', () => {
    expect(parseRetryAfter({ 'retry-after': new Date(NOW + 7_000).toUTCString() }, NOW)).toBe(7_000);
  });

  it('treats a date in the past as no wait', () => {
    expect(parseRetryAfter({ 'retry-after': new Date(NOW - 7_000).toUTCString() }, NOW)).toBe(0);
  });

  it('prefers retry-after-ms, whatever the header case', () => {
    expect(parseRetryAfter({ 'Retry-After-Ms': '250', 'retry-after': '9' }, NOW)).toBe(250);
  });

  it('ignores an unreadable value', () => {
    expect(parseRetryAfter({ 'retry-after': 'soon' }, NOW)).toBeUndefined();
  });
});

describe('delays', () => {
  it('draws the backoff uniformly below a ceiling that doubles per retry (full jitter)', () => {
    expect(backoffDelay(POLICY, 0, () => 0)).toBe(0);
    expect(backoffDelay(POLICY, 0, () => 0.5)).toBe(500);
    expect(backoffDelay(POLICY, 2, () => 0.5)).toBe(2_000);
  });

  it('never lets the backoff ceiling pass maxDelayMs', () => {
    expect(backoffDelay(POLICY, 20, () => 0.5)).toBe(30_000);
  });

  it('waits exactly what Retry-After asks instead of the backoff', () => {
    const cause = classifyError(apiError(429, { 'retry-after': new Date(NOW + 12_000).toUTCString() }), NOW)!;

    expect(retryDelay(POLICY, cause, 0, () => 0)).toBe(12_000);
  });

  it('caps a Retry-After longer than maxDelayMs', () => {
    const cause = classifyError(apiError(429, { 'retry-after': '3600' }), NOW)!;

    expect(retryDelay(POLICY, cause, 0, () => 0)).toBe(60_000);
  });
});

describe('messages', () => {
  it('tell the user what failed, how long the wait is and which attempt comes next', () => {
    const cause = classifyError(apiError(429), NOW)!;

    expect(retryStatusMessage('gemini-2.5-flash', cause, 2_000, 2, 4)).toBe('gemini-2.5-flash: rate limited (429), retrying in 2.0 s (attempt 2 of 4)');
  });

  it('name the provider, the model, the attempts and the last cause when retries run out', () => {
    const cause = classifyError(apiError(429, { 'retry-after': '30' }), NOW)!;

    expect(exhaustedMessage({ provider: 'anthropic.messages', modelId: 'claude-sonnet-4-5' }, 4, cause)).toBe(
      'anthropic.messages claude-sonnet-4-5 failed after 4 attempts: rate limited (429; last Retry-After 30.0 s): HTTP 429',
    );
  });
});

describe('retryPolicyOf', () => {
  it('fills unset fields with the defaults', () => {
    expect(retryPolicyOf({ maxRetries: 1 })).toEqual({ ...DEFAULT_RETRY_POLICY, maxRetries: 1 });
  });

  it('refuses a negative or fractional retry count', () => {
    expect(() => retryPolicyOf({ maxRetries: -1 })).toThrow(RangeError);
    expect(() => retryPolicyOf({ maxRetries: 1.5 })).toThrow(RangeError);
  });
});

describe('sleep', () => {
  it('rejects with the abort reason as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const slept = sleep(3_600_000, controller.signal);

    controller.abort(new Error('stop'));

    await expect(slept).rejects.toThrow('stop');
  });
});
