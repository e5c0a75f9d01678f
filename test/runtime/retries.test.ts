import { APICallError, type LanguageModelV3, type LanguageModelV3CallOptions, type LanguageModelV3StreamPart, type LanguageModelV3StreamResult } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import type { ScriptStep } from '../../src/config/schema.js';
import { resolveModel } from '../../src/models/resolveModel.js';
import type { CompileOptions } from '../../src/runtime/compileSyndicate.js';
import { runTurn, type RunTurnOptions } from '../../src/runtime/runTurn.js';
import { agent, collect, compile, ofType, turnEnd } from './fixtures.js';

// Tiny delays keep these tests fast; none of them measures time.
const FAST: RunTurnOptions['retry'] = { initialDelayMs: 1, maxDelayMs: 5 };

type StreamHandler = (options: LanguageModelV3CallOptions, attempt: number) => Promise<LanguageModelV3StreamResult>;

/** A streaming-only model with a real provider's identity whose every call goes to `handle`. */
function fakeModel(handle: StreamHandler, provider = 'anthropic.messages', modelId = 'claude-sonnet-4-5'): LanguageModelV3 {
  let attempts = 0;
  return {
    specificationVersion: 'v3',
    provider,
    modelId,
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error('this fake model only streams')),
    doStream: (options) => handle(options, ++attempts),
  };
}

/** Every agent named `name` runs on `model`; the others on the scripted model. */
function using(name: string, model: LanguageModelV3): CompileOptions {
  return { resolveModel: (id, context, env) => (context.agentName === name ? model : resolveModel(id, context, env)) };
}

function streamOf(parts: LanguageModelV3StreamPart[]): LanguageModelV3StreamResult {
  return {
    stream: new ReadableStream({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    }),
  };
}

const USAGE = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

function answer(text: string): LanguageModelV3StreamResult {
  return streamOf([
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    { type: 'text-delta', id: 't', delta: text },
    { type: 'text-end', id: 't' },
    { type: 'finish', usage: USAGE, finishReason: { unified: 'stop', raw: 'end_turn' } },
  ]);
}

function rateLimited(retryAfter: string): APICallError {
  return new APICallError({ message: 'Rate limit exceeded', url: 'https://api.example/v1/messages', requestBodyValues: {}, statusCode: 429, responseHeaders: { 'retry-after': retryAfter } });
}

function serverError(): APICallError {
  return new APICallError({ message: 'Internal server error', url: 'https://api.example/v1/messages', requestBodyValues: {}, statusCode: 500 });
}

/** Never answers; rejects with the abort reason when the call's signal aborts. */
function hang(options: LanguageModelV3CallOptions): Promise<never> {
  return new Promise((_resolve, reject) => {
    const signal = options.abortSignal;
    signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

function scripted(steps: ScriptStep[]) {
  return compile(agent('Solo', { script: steps }));
}

describe('retries', () => {
  it.each([true, false])('complete the turn after a scripted 429, with a status event and the answer (stream: %s)', async (stream) => {
    const events = await collect(scripted([{ error: 'rate_limit' }, { reply: 'Recovered.' }]), { input: 'hi', stream, retry: FAST });

    expect(turnEnd(events)).toMatchObject({ status: 'completed', output: 'Recovered.' });
    expect(ofType(events, 'status').map((e) => e.message)).toEqual([expect.stringMatching(/^scripted: rate limited \(429\), retrying in \d+ ms \(attempt 2 of 4\)$/)]);
  });

  it('retry a 500', async () => {
    const events = await collect(scripted([{ error: 'server' }, { reply: 'Recovered.' }]), { input: 'hi', retry: FAST });

    expect(turnEnd(events)).toMatchObject({ status: 'completed', output: 'Recovered.' });
    expect(ofType(events, 'status')[0]?.message).toContain('server error (500)');
  });

  it('retry a timeout the provider reports', async () => {
    const events = await collect(scripted([{ error: 'timeout' }, { reply: 'Recovered.' }]), { input: 'hi', retry: FAST });

    expect(turnEnd(events)).toMatchObject({ status: 'completed', output: 'Recovered.' });
    expect(ofType(events, 'status')[0]?.message).toContain('timed out');
  });

  it('abort an attempt that makes no progress within attemptTimeoutMs, and retry it', async () => {
    const model = fakeModel((options, attempt) => (attempt === 1 ? hang(options) : Promise.resolve(answer('Second try.'))));

    const events = await collect(compile(agent('Solo'), using('Solo', model)), { input: 'hi', retry: { ...FAST, attemptTimeoutMs: 10 } });

    expect(turnEnd(events)).toMatchObject({ status: 'completed', output: 'Second try.' });
    expect(ofType(events, 'status')[0]?.message).toContain('claude-sonnet-4-5: timed out (no response for 10 ms)');
  });

  it('record one usage event per attempt, failed attempts as errors', async () => {
    const events = await collect(scripted([{ error: 'rate_limit' }, { error: 'server' }, { reply: 'Third time.' }]), { input: 'hi', retry: FAST });

    expect(ofType(events, 'usage').map((e) => e.outcome)).toEqual(['error', 'error', 'ok']);
  });

  it('end the turn when they run out, naming the provider, the model and the cause', async () => {
    const model = fakeModel(() => Promise.reject(rateLimited('30')));

    const events = await collect(compile(agent('Solo'), using('Solo', model)), { input: 'hi', retry: { ...FAST, maxRetries: 2 } });

    expect(turnEnd(events).status).toBe('failed');
    expect(ofType(events, 'error')[0]).toMatchObject({
      code: 'model_error',
      message: 'anthropic.messages claude-sonnet-4-5 failed after 3 attempts: rate limited (429; last Retry-After 30.0 s): Rate limit exceeded',
    });
    expect(ofType(events, 'status')).toHaveLength(2);
  });

  it('that run out in a delegated agent give the parent an error result, and the turn goes on', async () => {
    const root = agent('Moderator', { subagents: [agent('Advocate', { script: [{ error: 'server', repeat: true }] })] });

    const events = await collect(compile(root), { input: 'Should we?', retry: { ...FAST, maxRetries: 1 } });

    expect(ofType(events, 'delegation-end')[0]).toMatchObject({ isError: true, output: expect.stringContaining('Advocate failed: scripted scripted failed after 2 attempts: server error (500)') });
    expect(turnEnd(events).status).toBe('completed');
  });

  it('never happen for a model that is not configured', async () => {
    const events = await collect(compile(agent('Solo', { model: 'claude-sonnet-4-5' }), { env: {} }), { input: 'hi', retry: FAST });

    expect(ofType(events, 'error')[0]?.code).toBe('model_config');
    expect(ofType(events, 'status')).toEqual([]);
    expect(ofType(events, 'usage')).toHaveLength(1);
  });

  it('end promptly, cancelled, when the user cancels during the backoff', async () => {
    const model = fakeModel(() => Promise.reject(rateLimited('3600')));
    const controller = new AbortController();
    // Aborted from a timer, so the cancel lands while the backoff sleeps (an hour, were it not abortable).
    const cancelOnRetry = (event: { type: string }): void => void (event.type === 'status' && setTimeout(() => controller.abort(), 1));

    const events = await collect(compile(agent('Solo'), using('Solo', model)), { input: 'hi', signal: controller.signal, observers: [cancelOnRetry], retry: { maxDelayMs: 3_600_000 } });

    expect(ofType(events, 'status')[0]?.message).toContain('retrying in 3600.0 s');
    expect(turnEnd(events).status).toBe('cancelled');
    expect(ofType(events, 'error')[0]?.code).toBe('cancelled');
  });

  it('retry a stream that fails before its first content part', async () => {
    const failing = streamOf([{ type: 'stream-start', warnings: [] }, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }]);
    const model = fakeModel((_options, attempt) => Promise.resolve(attempt === 1 ? failing : answer('Second try.')));

    const events = await collect(compile(agent('Solo'), using('Solo', model)), { input: 'hi', retry: FAST });

    expect(turnEnd(events)).toMatchObject({ status: 'completed', output: 'Second try.' });
    expect(ofType(events, 'status')[0]?.message).toContain('server error (overloaded_error)');
  });

  it('do not happen once a stream has emitted text', async () => {
    const halfAnswer = streamOf([
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'The answer is' },
      { type: 'error', error: serverError() },
    ]);
    const model = fakeModel(() => Promise.resolve(halfAnswer));

    const events = await collect(compile(agent('Solo'), using('Solo', model)), { input: 'hi', retry: FAST });

    expect(ofType(events, 'usage')).toHaveLength(1);
    expect(ofType(events, 'status')).toEqual([]);
    expect(turnEnd(events).status).toBe('failed');
    expect(ofType(events, 'error')[0]?.message).toContain('failed after its answer had started streaming, so it was not retried: server error (500)');
  });
});

describe('the turn deadline', () => {
  it('ends a turn that runs past it as failed with code deadline, not cancelled', async () => {
    const model = fakeModel(hang);

    const events = await collect(compile(agent('Solo'), using('Solo', model)), { input: 'hi', deadlineMs: 20 });

    expect(turnEnd(events).status).toBe('failed');
    expect(ofType(events, 'error')[0]).toMatchObject({ code: 'deadline', message: 'The turn passed its 20 ms deadline and was stopped.' });
  });

  it('ends the whole turn when it passes inside a delegated agent', async () => {
    const root = agent('Moderator', { subagents: [agent('Advocate')] });

    const events = await collect(compile(root, using('Advocate', fakeModel(hang))), { input: 'Should we?', deadlineMs: 20 });

    expect(ofType(events, 'delegation-end')).toEqual([]);
    expect(ofType(events, 'error')[0]?.code).toBe('deadline');
    expect(turnEnd(events).status).toBe('failed');
  });

  it('is refused when it is not a positive number', () => {
    expect(() => runTurn(compile(agent('Solo')), { input: 'hi', deadlineMs: 0 })).toThrow(RangeError);
  });

  it("is the file's deadline when the caller sets none", async () => {
    const events = await collect(compile(agent('Solo'), using('Solo', fakeModel(hang)), { deadlineMs: 20 }), { input: 'hi' });

    expect(ofType(events, 'error')[0]).toMatchObject({ code: 'deadline', message: 'The turn passed its 20 ms deadline and was stopped.' });
  });
});

describe("the file's timeout", () => {
  it('aborts an attempt that makes no progress within it, and retries it', async () => {
    const model = fakeModel((options, attempt) => (attempt === 1 ? hang(options) : Promise.resolve(answer('Second try.'))));

    const events = await collect(compile(agent('Solo'), using('Solo', model), { attemptTimeoutMs: 10 }), { input: 'hi', retry: FAST });

    expect(turnEnd(events)).toMatchObject({ status: 'completed', output: 'Second try.' });
  });
});
