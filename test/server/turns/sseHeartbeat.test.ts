import { EventEmitter } from 'node:events';
import type { Response } from 'express';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HEARTBEAT_MS, openSse } from '../../../src/server/turns/sse.js';

// The heartbeat every open stream shares, on fake timers (a file of its own: the timer is the module's).

afterEach(() => void vi.useRealTimers());

interface FakeResponse extends EventEmitter {
  written: string[];
}

function fakeResponse(): FakeResponse {
  const res = Object.assign(new EventEmitter(), {
    statusCode: 0,
    written: [] as string[],
    setHeader: () => undefined,
    flushHeaders: () => undefined,
    write: (text: string) => void res.written.push(text),
    end: () => void res.emit('close'),
  });
  return res;
}

describe('the SSE heartbeat', () => {
  it('sends every open stream a keep-alive comment each beat, and a stream that has closed none', () => {
    vi.useFakeTimers();
    const [first, second, ended] = [fakeResponse(), fakeResponse(), fakeResponse()];
    openSse(first as unknown as Response);
    openSse(second as unknown as Response);
    openSse(ended as unknown as Response).end();

    vi.advanceTimersByTime(HEARTBEAT_MS);
    expect([first.written, second.written, ended.written]).toStrictEqual([[': keep-alive\n\n'], [': keep-alive\n\n'], []]);

    first.emit('close');
    vi.advanceTimersByTime(HEARTBEAT_MS);
    expect([first.written.length, second.written.length]).toStrictEqual([1, 2]);

    second.emit('close');
    expect(vi.getTimerCount()).toBe(0);
  });
});
