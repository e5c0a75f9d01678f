import { getQuickJS, type QuickJSContext, type QuickJSHandle, type QuickJSRuntime } from 'quickjs-emscripten';
import { DEFAULT_SANDBOX_LIMITS, type SandboxLimits } from './limits.js';
import { describeFailure, type ScriptFailure, type ScriptFailureKind } from './scriptFailure.js';

// Runs one JavaScript script in a fresh QuickJS runtime (WebAssembly): no network, no file
// system, no process, no timers; only the functions passed in. Values cross the boundary as JSON
// text, so the script never holds a host object and the host never holds a script object.
// Tool functions are async: the script's promise for a call is settled when the host's is.

/**
 * A function the script may call. `signal` aborts when the run's signal does, or when the script
 * ends before the call does; it is the same signal for every call of one script.
 */
export type HostFunction = (input: unknown, signal: AbortSignal) => Promise<unknown>;

export interface ScriptRun {
  code: string;
  /** By the identifier the script calls them by. */
  functions: ReadonlyMap<string, HostFunction>;
  signal: AbortSignal;
  limits?: Partial<SandboxLimits>;
  /** The script's global `input` (a JSON copy); null when not given. */
  input?: unknown;
}

export type ScriptOutcome =
  | { ok: true; value: unknown; logs: string[]; hostCalls: number; unfinishedCalls: number }
  | ({ ok: false; logs: string[]; hostCalls: number; unfinishedCalls: number } & ScriptFailure);

/** The script is the body of an async function opened on its first line: reported lines are the model's. */
const SCRIPT_PREFIX = '(async () => {';
const SCRIPT_SUFFIX = '\n})()';
const SCRIPT_FILE = 'script.js';

// The script's console and tool functions, over host primitives the prelude hides before the
// script runs. Promises live in the VM and the host settles them by id: each crossing of the
// boundary costs tens of microseconds in quickjs-emscripten, so a call makes one each way, with
// as few values as can carry it: both sides number calls 1, 2, 3... in the order the script makes
// them, so no id crosses on the way out, and a failure comes back under the negated id.
// It returns [settle(id, text), watch(promise)], which the host keeps.
const PRELUDE = `(() => {
  const { __print: print, __call: call, __names: names, __finish: finish, __input: input } = globalThis;
  delete globalThis.__print; delete globalThis.__call; delete globalThis.__names; delete globalThis.__finish; delete globalThis.__input;
  const { stringify, parse } = JSON;
  globalThis.input = parse(input);
  const show = (v) => { if (typeof v === 'string') return v; try { return stringify(v) ?? String(v); } catch { return String(v); } };
  const log = (...values) => { print(values.map(show).join(' ')); };
  globalThis.console = Object.freeze({ log, info: log, warn: log, error: log });
  const waiting = new Map();
  let next = 0;
  for (const name of parse(names)) {
    globalThis[name] = (input) => {
      // Made here, while the caller's frame is on the stack: its stack names the script's line.
      const failure = new Error();
      const json = stringify(input === undefined ? {} : input) ?? '{}';
      return new Promise((resolve, reject) => {
        waiting.set(++next, { resolve, reject, failure });
        call(name, json);
      });
    };
  }
  const settle = (signed, text) => {
    const id = signed < 0 ? -signed : signed;
    const call = waiting.get(id);
    waiting.delete(id);
    if (signed > 0) call.resolve(parse(text));
    else { call.failure.message = text; call.reject(call.failure); }
  };
  const watch = (promise) => promise.then(
    (value) => { let json; try { json = stringify(value === undefined ? null : value); } catch (error) { finish(false, error); return; } finish(true, json ?? 'null'); },
    (error) => finish(false, error),
  );
  return [settle, watch];
})()`;

let quickJs: ReturnType<typeof getQuickJS> | undefined;

type Ending = { ok: true; json: string } | { ok: false; error: unknown };

interface Session {
  vm: QuickJSRuntime;
  ctx: QuickJSContext;
  limits: SandboxLimits;
  logs: string[];
  outputChars: number;
  hostCalls: number;
  /** Calls the script has made, counted as the prelude counts them (hostCalls stops at the cap). */
  callsMade: number;
  /** Host calls still running, by the id the script's promise waits under. */
  pending: Map<number, Promise<void>>;
  settle: QuickJSHandle | undefined;
  ending: Ending | undefined;
  stop: ScriptFailureKind | undefined;
  stopMessage: string | undefined;
  cpuUsed: number;
  segmentStart: number;
  /** Aborted when the script ends: tells the calls it left running. */
  ended: AbortController;
  /** The run's signal or `ended`, made once: a composite signal per call cost more than the call. */
  callSignal: AbortSignal;
  /** Resolves the host loop's wait for the next settlement. */
  wake: (() => void) | undefined;
}

function stopWith(session: Session, kind: ScriptFailureKind, message: string): void {
  session.stop ??= kind;
  session.stopMessage ??= message;
}

/** Runs VM code on the script's CPU budget. */
function inVm<T>(session: Session, run: () => T): T {
  session.segmentStart = performance.now();
  try {
    return run();
  } finally {
    session.cpuUsed += performance.now() - session.segmentStart;
  }
}

function runJobs(session: Session): void {
  const result = inVm(session, () => session.vm.executePendingJobs());
  // A job that throws rejects the script's promise too; its own error handle is not needed.
  if (result.error) result.error.dispose();
}

function setGlobal(ctx: QuickJSContext, name: string, handle: QuickJSHandle): void {
  ctx.setProp(ctx.global, name, handle);
  handle.dispose();
}

function settle(session: Session, id: number, ok: boolean, text: string): void {
  session.pending.delete(id);
  // The script has ended (or is being torn down): nothing waits for this call any more.
  if (session.ending !== undefined || session.stop !== undefined || !session.settle?.alive) return;
  const { ctx } = session;
  const signed = ctx.newNumber(ok ? id : -id);
  const payload = ctx.newString(text);
  const result = inVm(session, () => ctx.callFunction(session.settle!, ctx.undefined, signed, payload));
  signed.dispose();
  payload.dispose();
  if (result.error) {
    stopWith(session, 'exception', 'settling a tool call failed');
    result.error.dispose();
  } else result.value.dispose();
  session.wake?.();
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function addPrimitives(session: Session, functions: ReadonlyMap<string, HostFunction>, input: unknown): void {
  const { ctx, limits } = session;
  setGlobal(
    ctx,
    '__print',
    ctx.newFunction('__print', (line) => {
      const text = ctx.getString(line);
      session.outputChars += text.length + 1;
      if (session.outputChars <= limits.outputChars) {
        session.logs.push(text);
        return undefined;
      }
      stopWith(session, 'output', `the script printed more than ${limits.outputChars} characters`);
      return { error: ctx.newError({ name: 'LimitError', message: session.stopMessage! }) };
    }),
  );
  setGlobal(
    ctx,
    '__call',
    ctx.newFunction('__call', (nameHandle, inputHandle) => {
      // The script's own count of its calls, which names the promise the result settles.
      const id = ++session.callsMade;
      const name = ctx.getString(nameHandle);
      const json = ctx.getString(inputHandle);
      // A job the script left queued may still run after its promise settled: it may not start tools.
      if (session.ending !== undefined || session.stop !== undefined) return { error: ctx.newError(`${name} was called after the script ended`) };
      const fn = functions.get(name);
      if (!fn) return { error: ctx.newError(`${name} is not a tool function`) };
      if (++session.hostCalls > limits.hostCalls) {
        stopWith(session, 'host-calls', `the script made more than ${limits.hostCalls} tool calls`);
        return { error: ctx.newError({ name: 'LimitError', message: session.stopMessage! }) };
      }
      if (json.length > limits.inputChars) return { error: ctx.newError(`the input of ${name} is ${json.length} characters of JSON, more than the ${limits.inputChars} allowed`) };
      // Started once the script yields, so the tool's own synchronous work is not billed as script CPU.
      const done = Promise.resolve()
        .then(() => fn(JSON.parse(json), session.callSignal))
        .then(
          (value) => settle(session, id, true, JSON.stringify(value ?? null)),
          (error: unknown) => settle(session, id, false, errorText(error)),
        );
      session.pending.set(id, done);
      return undefined;
    }),
  );
  setGlobal(
    ctx,
    '__finish',
    ctx.newFunction('__finish', (okHandle, payload) => {
      session.ending = ctx.dump(okHandle) === true ? { ok: true, json: ctx.getString(payload) } : { ok: false, error: ctx.dump(payload) as unknown };
      return undefined;
    }),
  );
  setGlobal(ctx, '__names', ctx.newString(JSON.stringify([...functions.keys()])));
  setGlobal(ctx, '__input', ctx.newString(JSON.stringify(input ?? null)));
}

/** The prelude's [settle, watch]. */
function runPrelude(session: Session): { settle: QuickJSHandle; watch: QuickJSHandle } {
  const { ctx } = session;
  const result = inVm(session, () => ctx.evalCode(PRELUDE, 'prelude.js'));
  if (result.error) {
    const problem = ctx.dump(result.error) as unknown;
    result.error.dispose();
    throw new Error(`the sandbox prelude failed: ${JSON.stringify(problem)}`);
  }
  const settleFn = ctx.getProp(result.value, 0);
  const watch = ctx.getProp(result.value, 1);
  result.value.dispose();
  return { settle: settleFn, watch };
}

/** Waits for the next tool call to settle, or the turn to be cancelled. */
function nextSettlement(session: Session): Promise<void> {
  return new Promise<void>((resolve) => {
    session.wake = () => {
      session.wake = undefined;
      resolve();
    };
  });
}

/**
 * The script's promise as it stands, read from the VM: when its own handlers could not report
 * (an interrupt stops them too, memory may be exhausted), this still says how and where it ended.
 */
function settledState(session: Session, main: QuickJSHandle): Ending | undefined {
  const { ctx } = session;
  const state = ctx.getPromiseState(main);
  if (state.type === 'pending') return undefined;
  if (state.type === 'rejected') {
    const error = ctx.dump(state.error) as unknown;
    state.error.dispose();
    return { ok: false, error };
  }
  const value = ctx.dump(state.value) as unknown;
  state.value.dispose();
  return { ok: true, json: JSON.stringify(value ?? null) };
}

async function drive(session: Session, main: QuickJSHandle, signal: AbortSignal): Promise<void> {
  const onAbort = (): void => session.wake?.();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    runJobs(session);
    while (session.ending === undefined && session.stop === undefined) {
      if (signal.aborted) return stopWith(session, 'cancelled', 'the turn was cancelled');
      if (session.pending.size === 0) {
        session.ending = settledState(session, main);
        if (session.ending === undefined) stopWith(session, 'stalled', 'the script awaits a promise that nothing will ever settle');
        return;
      }
      await nextSettlement(session);
      runJobs(session);
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (session.stop !== undefined) session.ending ??= settledState(session, main);
  }
}

function outcomeOf(session: Session, code: string): ScriptOutcome {
  const { limits, ending } = session;
  const base = { logs: session.logs, hostCalls: Math.min(session.hostCalls, limits.hostCalls), unfinishedCalls: session.pending.size };
  const error = ending?.ok === false ? ending.error : undefined;
  if (session.stop) return { ...base, ok: false, ...describeFailure(session.stop, session.stopMessage ?? session.stop, error, code, limits.memoryBytes) };
  if (!ending) throw new Error('the script ended without an outcome (a sandbox invariant)');
  if (!ending.ok) return { ...base, ok: false, ...describeFailure('exception', '', ending.error, code, limits.memoryBytes) };
  if (ending.json.length + session.outputChars > limits.outputChars) {
    return { ...base, ok: false, kind: 'output', message: `the script's result is ${ending.json.length} characters of JSON, more than the ${limits.outputChars - session.outputChars} left of the output limit` };
  }
  return { ...base, ok: true, value: JSON.parse(ending.json) as unknown };
}

export async function runScript(run: ScriptRun): Promise<ScriptOutcome> {
  const limits = { ...DEFAULT_SANDBOX_LIMITS, ...run.limits };
  const module = await (quickJs ??= getQuickJS());
  const vm = module.newRuntime();
  vm.setMemoryLimit(limits.memoryBytes);
  vm.setMaxStackSize(limits.stackBytes);
  const ctx = vm.newContext();
  const ended = new AbortController();
  const session: Session = {
    vm,
    ctx,
    limits,
    logs: [],
    outputChars: 0,
    hostCalls: 0,
    callsMade: 0,
    pending: new Map(),
    settle: undefined,
    ending: undefined,
    stop: undefined,
    stopMessage: undefined,
    cpuUsed: 0,
    segmentStart: 0,
    ended,
    callSignal: AbortSignal.any([run.signal, ended.signal]),
    wake: undefined,
  };
  let watch: QuickJSHandle | undefined;
  let main: QuickJSHandle | undefined;
  try {
    addPrimitives(session, run.functions, run.input);
    ({ settle: session.settle, watch } = runPrelude(session));
    // Only the script's own code is budgeted: the prelude's first run (a cold WebAssembly tier) alone took over 50 ms.
    session.cpuUsed = 0;
    vm.setInterruptHandler(() => {
      if (session.stop !== undefined || run.signal.aborted) return true;
      if (session.cpuUsed + (performance.now() - session.segmentStart) <= limits.cpuMs) return false;
      stopWith(session, 'timeout', `the script ran for more than ${limits.cpuMs} ms of CPU time`);
      return true;
    });
    const evaluated = inVm(session, () => ctx.evalCode(`${SCRIPT_PREFIX}${run.code}${SCRIPT_SUFFIX}`, SCRIPT_FILE));
    if (evaluated.error) {
      const error = ctx.dump(evaluated.error) as unknown;
      evaluated.error.dispose();
      return { logs: [], hostCalls: 0, unfinishedCalls: 0, ok: false, ...describeFailure(session.stop ?? 'syntax', session.stopMessage ?? '', error, run.code, limits.memoryBytes) };
    }
    main = evaluated.value;
    const watched = inVm(session, () => ctx.callFunction(watch!, ctx.undefined, main!));
    if (watched.error) throw new Error(`the sandbox could not watch the script: ${JSON.stringify(ctx.dump(watched.error))}`);
    watched.value.dispose();
    await drive(session, main, run.signal);
    return outcomeOf(session, run.code);
  } finally {
    // Calls the script left running are told to stop and awaited: none may outlive the script,
    // or touch its context once it is gone.
    session.ending ??= { ok: false, error: undefined };
    session.ended.abort();
    await Promise.all(session.pending.values());
    session.settle?.dispose();
    watch?.dispose();
    main?.dispose();
    ctx.dispose();
    vm.dispose();
  }
}
