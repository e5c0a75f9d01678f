import { describe, expect, it } from 'vitest';
import { runScript, type HostFunction, type ScriptRun } from '../../../src/tools/sandbox/runScript.js';

const never = new AbortController().signal;

function run(code: string, functions: Record<string, HostFunction> = {}, extra: Partial<ScriptRun> = {}) {
  return runScript({ code, functions: new Map(Object.entries(functions)), signal: never, ...extra });
}

const double: HostFunction = async (input) => ({ doubled: (input as { n: number }).n * 2 });

describe('runScript', () => {
  it('returns the value the script returns, as JSON', async () => {
    const outcome = await run('const x = 20;\nreturn { answer: x + 22, list: [1, "two"] };');

    expect(outcome).toMatchObject({ ok: true, value: { answer: 42, list: [1, 'two'] } });
  });

  it('collects what the script logs with console.log', async () => {
    const outcome = await run('console.log("step", 1, { a: true });\nreturn null;');

    expect(outcome.logs).toEqual(['step 1 {"a":true}']);
  });

  it('awaits host functions and gives the script a copy of their results', async () => {
    const outcome = await run('const a = await double({ n: 2 });\nconst b = await double({ n: a.doubled });\nreturn b.doubled;', { double });

    expect(outcome).toMatchObject({ ok: true, value: 8, hostCalls: 2 });
  });

  it('runs host calls in parallel when the script awaits them together', async () => {
    let running = 0;
    let peak = 0;
    const slow: HostFunction = async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      return 'done';
    };

    const outcome = await run('return await Promise.all([slow(), slow(), slow()]);', { slow });

    expect(outcome).toMatchObject({ ok: true, value: ['done', 'done', 'done'] });
    expect(peak).toBe(3);
  });

  it('turns a failing host function into an exception the script can catch', async () => {
    const failing: HostFunction = async () => {
      throw new Error('the ledger is closed');
    };

    const outcome = await run('try { await failing(); } catch (e) { return "caught: " + e.message; }', { failing });

    expect(outcome).toMatchObject({ ok: true, value: 'caught: the ledger is closed' });
  });

  it('reports a syntax error with the line the model wrote', async () => {
    const outcome = await run('const a = 1;\nconst b = ;\nreturn a;');

    expect(outcome).toMatchObject({ ok: false, kind: 'syntax', line: 2, source: 'const b = ;' });
    expect(outcome.ok || outcome.message).toMatch(/SyntaxError/);
  });

  it('reports an uncaught exception with its message and line', async () => {
    const outcome = await run('const rows = null;\n\nreturn rows.length;');

    expect(outcome).toMatchObject({ ok: false, kind: 'exception', line: 3, source: 'return rows.length;' });
    expect(outcome.ok || outcome.message).toMatch(/TypeError: cannot read property 'length' of null/);
  });

  it('stops an infinite loop at the CPU limit', async () => {
    const outcome = await run('let i = 0;\nwhile (true) { i++; }', {}, { limits: { cpuMs: 50 } });

    expect(outcome).toMatchObject({ ok: false, kind: 'timeout' });
    expect(outcome.ok || outcome.message).toContain('more than 50 ms of CPU time');
    expect(outcome.ok || outcome.line).toBeTypeOf('number');
  });

  it('stops a loop that resumes after a host call at the CPU limit', async () => {
    const outcome = await run('await double({ n: 1 });\nwhile (true) {}', { double }, { limits: { cpuMs: 50 } });

    expect(outcome).toMatchObject({ ok: false, kind: 'timeout' });
  });

  it('stops a memory bomb at the memory limit', async () => {
    const outcome = await run('let s = "x".repeat(1024);\nconst parts = [];\nwhile (true) parts.push(s + parts.length);', {}, { limits: { memoryBytes: 2 * 1024 * 1024, cpuMs: 10_000 } });

    expect(outcome).toMatchObject({ ok: false, kind: 'memory', line: 3 });
    expect(outcome.ok || outcome.message).toContain("more than 2 MiB");
  });

  it('stops a large allocation at the memory limit', async () => {
    const outcome = await run('return new ArrayBuffer(64 * 1024 * 1024).byteLength;', {}, { limits: { memoryBytes: 8 * 1024 * 1024 } });

    expect(outcome).toMatchObject({ ok: false, kind: 'memory' });
  });

  it('reports runaway recursion as a stack overflow, not a crash', async () => {
    const outcome = await run('function down(n) { return down(n + 1) + 1; }\nreturn down(0);');

    expect(outcome).toMatchObject({ ok: false, kind: 'exception', line: 1 });
    expect(outcome.ok || outcome.message).toContain('stack overflow');
  });

  it('stops the script at the cap on host calls, even if it catches the error', async () => {
    const outcome = await run('for (let i = 0; i < 10; i++) { try { await double({ n: i }); } catch {} }\nreturn "went on";', { double }, { limits: { hostCalls: 3 } });

    expect(outcome).toMatchObject({ ok: false, kind: 'host-calls', hostCalls: 3 });
    expect(outcome.ok || outcome.message).toContain('more than 3 tool calls');
  });

  it('stops a script that prints more than the output limit', async () => {
    const outcome = await run('while (true) console.log("x".repeat(100));', {}, { limits: { outputChars: 1_000 } });

    expect(outcome).toMatchObject({ ok: false, kind: 'output' });
    expect(outcome.logs.join('').length).toBeLessThanOrEqual(1_000);
  });

  it('refuses a result larger than the output limit', async () => {
    const outcome = await run('return "y".repeat(5_000);', {}, { limits: { outputChars: 1_000 } });

    expect(outcome).toMatchObject({ ok: false, kind: 'output' });
  });

  it('refuses a tool call whose input is larger than the input limit, as an exception the script can catch', async () => {
    const outcome = await run('try { await double({ n: 1, pad: "z".repeat(2_000) }); } catch (e) { return e.message; }', { double }, { limits: { inputChars: 1_000 } });

    expect(outcome).toMatchObject({ ok: true, value: expect.stringMatching(/^the input of double is \d+ characters of JSON, more than the 1000 allowed$/) });
  });

  it('reports a result that cannot be turned into JSON as an exception', async () => {
    const outcome = await run('const loop = {};\nloop.self = loop;\nreturn loop;');

    expect(outcome).toMatchObject({ ok: false, kind: 'exception' });
    expect(outcome.ok || outcome.message).toMatch(/TypeError: circular reference/);
  });

  it('reports a script that awaits a promise nothing settles', async () => {
    const outcome = await run('await new Promise(() => {});\nreturn 1;');

    expect(outcome).toMatchObject({ ok: false, kind: 'stalled' });
  });

  it('stops when the signal aborts while it waits for a host call', async () => {
    const controller = new AbortController();
    const hang: HostFunction = (_input, signal) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
    setTimeout(() => controller.abort(), 10);

    const outcome = await run('await hang();\nreturn 1;', { hang }, { signal: controller.signal });

    expect(outcome).toMatchObject({ ok: false, kind: 'cancelled' });
  });

  describe('escape attempts', () => {
    it('finds no process, require, fetch, timers or file access through constructor.constructor', async () => {
      const outcome = await run(
        'const F = constructor.constructor;\nreturn [F("return typeof process")(), F("return typeof require")(), typeof fetch, typeof setTimeout, typeof XMLHttpRequest, typeof std, typeof os];',
      );

      expect(outcome).toMatchObject({ ok: true, value: ['undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined'] });
    });

    it('gives a host function no way back to the host through its constructor', async () => {
      const outcome = await run('const F = double.constructor.constructor;\nreturn F("return typeof process + typeof globalThis.__call")();', { double });

      expect(outcome).toMatchObject({ ok: true, value: 'undefinedundefined' });
    });

    it('cannot pollute the host’s prototypes through the values it passes or receives', async () => {
      let received: unknown;
      const keep: HostFunction = async (input) => {
        received = input;
        return { nested: { ok: true } };
      };

      const outcome = await run(
        'const r = await keep(JSON.parse(\'{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}}\'));\nr.__proto__.polluted = "yes";\nObject.prototype.polluted = "yes";\nr.nested.constructor.prototype.polluted = "yes";\nreturn ({}).polluted;',
        { keep },
      );

      expect(outcome).toMatchObject({ ok: true, value: 'yes' });
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      expect(Object.getPrototypeOf(received)).toBe(Object.prototype);
      expect((received as Record<string, unknown>)['polluted']).toBeUndefined();
    });

    it('cannot replace a host primitive: the prelude hid them before the script ran', async () => {
      const outcome = await run('return [typeof __call, typeof __print, typeof __names];');

      expect(outcome).toMatchObject({ ok: true, value: ['undefined', 'undefined', 'undefined'] });
    });

    it('refuses a host function called by a job that runs after the script ended', async () => {
      let calls = 0;
      const count: HostFunction = async () => ++calls;

      const outcome = await run('Promise.resolve().then(() => Promise.resolve()).then(() => count());\nreturn "ended";', { count });

      expect(outcome).toMatchObject({ ok: true, value: 'ended', hostCalls: 0, unfinishedCalls: 0 });
      expect(calls).toBe(0);
    });

    it('leaves a host function stashed by the script uncallable once the script is gone', async () => {
      let stashed = false;
      const first = await run('globalThis.kept = double;\nreturn typeof kept;', { double });
      const second = await run('return typeof kept;', { double: async () => (stashed = true) });

      expect(first).toMatchObject({ ok: true, value: 'function' });
      expect(second).toMatchObject({ ok: true, value: 'undefined' });
      expect(stashed).toBe(false);
    });

    it('lets a host call the script left running finish without touching the ended script', async () => {
      let finish: () => void = () => undefined;
      let sawAbort = false;
      const slow: HostFunction = (_input, signal) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => (sawAbort = true));
          finish = () => resolve('late');
        });
      setTimeout(() => finish(), 10);

      const outcome = await run('slow();\nreturn "ended first";', { slow });

      expect(outcome).toMatchObject({ ok: true, value: 'ended first', unfinishedCalls: 1 });
      expect(sawAbort).toBe(true);
    });
  });
});
