import { getQuickJS, type QuickJSContext, type QuickJSDeferredPromise, type QuickJSHandle, type QuickJSRuntime } from 'quickjs-emscripten';
import { DEFAULT_SANDBOX_LIMITS, type SandboxLimits } from './limits.js';
import { describeFailure, type ScriptFailure, type ScriptFailureKind } from './scriptFailure.js';

// Runs one JavaScript script in a fresh QuickJS runtime (WebAssembly): no network, no file
// system, no process, no timers; only the functions passed in. Values cross the boundary as JSON
// text, so the script never holds a host object and the host never holds a script object. Host
// functions are async: each call returns a QuickJS promise settled when the host's settles.

/** A function the script may call; `signal` aborts when the script ends before the call does. */
export type HostFunction = (input: unknown, signal: AbortSignal) => Promise<unknown>;

export interface ScriptRun {
  code: string;
  /** By the identifier the script calls them by. */
  functions: ReadonlyMap<string, HostFunction>;
  signal: AbortSignal;
  limits?: Partial<SandboxLimits>;
}

export type ScriptOutcome =
  | { ok: true; value: unknown; logs: string[]; hostCalls: number; unfinishedCalls: number }
  | ({ ok: false; logs: string[]; hostCalls: number; unfinishedCalls: number } & ScriptFailure);

/** What the script is wrapped in: its first line stays line 1, so reported lines are the model's. */
export const SCRIPT_PREFIX = '(async () => {';
const SCRIPT_SUFFIX = '\n})().then((value) => JSON.stringify(value === undefined ? null : value))';
export const SCRIPT_FILE = 'script.js';

// The script's console and tool functions, built on two host primitives the prelude then hides.
const PRELUDE = `(() => {
  const print = globalThis.__print, call = globalThis.__call, names = globalThis.__names;
  delete globalThis.__print; delete globalThis.__call; delete globalThis.__names;
  const show = (v) => { if (typeof v === 'string') return v; try { return JSON.stringify(v) ?? String(v); } catch { return String(v); } };
  const log = (...values) => { print(values.map(show).join(' ')); };
  globalThis.console = Object.freeze({ log, info: log, warn: log, error: log });
  for (const name of JSON.parse(names)) {
    globalThis[name] = async (input) => {
      // Made before the await, while the caller's frame is on the stack: its stack names the script's line.
      const failure = new Error();
      const json = JSON.stringify(input === undefined ? {} : input);
      let reply;
      try { reply = await call(name, json === undefined ? '{}' : json); } catch (message) { failure.message = String(message); throw failure; }
      return JSON.parse(reply);
    };
  }
})()`;

let quickJs: ReturnType<typeof getQuickJS> | undefined;

interface PendingCall {
  deferred: QuickJSDeferredPromise;
  done: Promise<void>;
}

interface Session {
  vm: QuickJSRuntime;
  ctx: QuickJSContext;
  limits: SandboxLimits;
  logs: string[];
  outputChars: number;
  hostCalls: number;
  pending: Set<PendingCall>;
  stop: ScriptFailureKind | undefined;
  stopMessage: string | undefined;
  cpuUsed: number;
  segmentStart: number;
  calls: AbortController;
}

function limitStop(session: Session, kind: ScriptFailureKind, message: string): QuickJSHandle {
  session.stop ??= kind;
  session.stopMessage ??= message;
  return session.ctx.newError({ name: 'LimitError', message });
}

function inVm<T>(session: Session, run: () => T): T {
  session.segmentStart = performance.now();
  try {
    return run();
  } finally {
    session.cpuUsed += performance.now() - session.segmentStart;
    session.segmentStart = Number.NaN;
  }
}

function runJobs(session: Session): void {
  const result = inVm(session, () => session.vm.executePendingJobs());
  // A job that throws rejects the script's promise too; its own error handle is not needed.
  if (result.error) result.error.dispose();
}

function addPrint(session: Session): void {
  const print = session.ctx.newFunction('__print', (line) => {
    const text = session.ctx.getString(line);
    session.outputChars += text.length + 1;
    if (session.outputChars > session.limits.outputChars) {
      return { error: limitStop(session, 'output', `the script printed more than ${session.limits.outputChars} characters`) };
    }
    session.logs.push(text);
    return undefined;
  });
  session.ctx.setProp(session.ctx.global, '__print', print);
  print.dispose();
}

function settle(session: Session, call: PendingCall, outcome: { value: unknown } | { error: unknown }): void {
  session.pending.delete(call);
  // Disposed: the script ended first, and its context may be gone.
  if (!call.deferred.alive) return;
  const { ctx } = session;
  if ('value' in outcome) ctx.newString(JSON.stringify(outcome.value ?? null)).consume((handle) => call.deferred.resolve(handle));
  else ctx.newString(errorText(outcome.error)).consume((handle) => call.deferred.reject(handle));
  call.deferred.dispose();
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function addCall(session: Session, functions: ReadonlyMap<string, HostFunction>): void {
  const { ctx, limits } = session;
  const call = ctx.newFunction('__call', (nameHandle, inputHandle) => {
    const name = ctx.getString(nameHandle);
    const json = ctx.getString(inputHandle);
    const fn = functions.get(name);
    if (!fn) return { error: ctx.newError(`${name} is not a tool function`) };
    if (++session.hostCalls > limits.hostCalls) {
      return { error: limitStop(session, 'host-calls', `the script made more than ${limits.hostCalls} tool calls`) };
    }
    if (json.length > limits.inputChars) return { error: ctx.newError(`the input of ${name} is ${json.length} characters of JSON, more than the ${limits.inputChars} allowed`) };
    const deferred = ctx.newPromise();
    const pending: PendingCall = { deferred, done: Promise.resolve() };
    // Started after the script yields, so the tool's own synchronous work is not billed as script CPU.
    pending.done = Promise.resolve()
      .then(() => fn(JSON.parse(json), session.calls.signal))
      .then(
        (value) => settle(session, pending, { value }),
        (error: unknown) => settle(session, pending, { error }),
      );
    session.pending.add(pending);
    return deferred.handle;
  });
  ctx.setProp(ctx.global, '__call', call);
  call.dispose();
  const names = ctx.newString(JSON.stringify([...functions.keys()]));
  ctx.setProp(ctx.global, '__names', names);
  names.dispose();
}

function evalOrThrow(session: Session, code: string): void {
  const result = inVm(session, () => session.ctx.evalCode(code, 'prelude.js'));
  if (result.error) {
    const problem = session.ctx.dump(result.error) as unknown;
    result.error.dispose();
    throw new Error(`the sandbox prelude failed: ${JSON.stringify(problem)}`);
  }
  result.value.dispose();
}

/** Waits for the next tool call to settle, or the turn to be cancelled. */
function nextSettlement(session: Session, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const onAbort = (): void => resolve();
    signal.addEventListener('abort', onAbort, { once: true });
    void Promise.race([...session.pending].map((call) => call.done)).then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

type MainState = { type: 'pending' } | { type: 'fulfilled'; json: string } | { type: 'rejected'; error: unknown };

function mainState(session: Session, main: QuickJSHandle): MainState {
  const state = session.ctx.getPromiseState(main);
  if (state.type === 'pending') return { type: 'pending' };
  if (state.type === 'fulfilled') {
    const json = session.ctx.getString(state.value);
    state.value.dispose();
    return { type: 'fulfilled', json };
  }
  const error = session.ctx.dump(state.error) as unknown;
  state.error.dispose();
  return { type: 'rejected', error };
}

async function drive(session: Session, main: QuickJSHandle, signal: AbortSignal): Promise<MainState> {
  runJobs(session);
  while (true) {
    const state = mainState(session, main);
    if (state.type !== 'pending' || session.stop) return state;
    if (session.pending.size === 0) {
      session.stop = 'stalled';
      session.stopMessage = 'the script awaits a promise that nothing will ever settle';
      return state;
    }
    await nextSettlement(session, signal);
    if (signal.aborted) {
      session.stop = 'cancelled';
      session.stopMessage = 'the turn was cancelled';
      return state;
    }
    runJobs(session);
  }
}

function outcomeOf(session: Session, state: MainState, code: string): ScriptOutcome {
  const base = { logs: session.logs, hostCalls: Math.min(session.hostCalls, session.limits.hostCalls), unfinishedCalls: 0 };
  if (session.stop) return { ...base, ok: false, ...describeFailure(session.stop, session.stopMessage ?? session.stop, state.type === 'rejected' ? state.error : undefined, code, session.limits.memoryBytes) };
  if (state.type === 'rejected') return { ...base, ok: false, ...describeFailure('exception', '', state.error, code, session.limits.memoryBytes) };
  if (state.type === 'pending') throw new Error('the script was left pending without a reason (a sandbox invariant)');
  if (state.json.length + session.outputChars > session.limits.outputChars) {
    return { ...base, ok: false, kind: 'output', message: `the script's result is ${state.json.length} characters of JSON, more than the ${session.limits.outputChars - session.outputChars} left of the output limit` };
  }
  return { ...base, ok: true, value: JSON.parse(state.json) as unknown };
}

export async function runScript(run: ScriptRun): Promise<ScriptOutcome> {
  const limits = { ...DEFAULT_SANDBOX_LIMITS, ...run.limits };
  const module = await (quickJs ??= getQuickJS());
  const vm = module.newRuntime();
  vm.setMemoryLimit(limits.memoryBytes);
  vm.setMaxStackSize(limits.stackBytes);
  const ctx = vm.newContext();
  const session: Session = { vm, ctx, limits, logs: [], outputChars: 0, hostCalls: 0, pending: new Set(), stop: undefined, stopMessage: undefined, cpuUsed: 0, segmentStart: Number.NaN, calls: new AbortController() };
  let main: QuickJSHandle | undefined;
  try {
    addPrint(session);
    addCall(session, run.functions);
    evalOrThrow(session, PRELUDE);
    // Only the script's own code is budgeted: the prelude's first run (a cold WebAssembly tier) alone took over 50 ms.
    session.cpuUsed = 0;
    vm.setInterruptHandler(() => {
      if (session.stop !== undefined || run.signal.aborted) return true;
      if (session.cpuUsed + (performance.now() - session.segmentStart) <= limits.cpuMs) return false;
      session.stop = 'timeout';
      session.stopMessage = `the script ran for more than ${limits.cpuMs} ms of CPU time`;
      return true;
    });
    const evaluated = inVm(session, () => ctx.evalCode(`${SCRIPT_PREFIX}${run.code}${SCRIPT_SUFFIX}`, SCRIPT_FILE));
    if (evaluated.error) {
      const error = ctx.dump(evaluated.error) as unknown;
      evaluated.error.dispose();
      return { logs: [], hostCalls: 0, unfinishedCalls: 0, ok: false, ...describeFailure(session.stop ?? 'syntax', session.stopMessage ?? '', error, run.code, limits.memoryBytes) };
    }
    main = evaluated.value;
    if (run.signal.aborted) {
      session.stop = 'cancelled';
      session.stopMessage = 'the turn was cancelled';
    }
    const state = await drive(session, main, run.signal);
    const outcome = outcomeOf(session, state, run.code);
    return { ...outcome, unfinishedCalls: session.pending.size };
  } finally {
    // Calls the script left running are told to stop and awaited: none may outlive the script,
    // or touch its context once it is gone.
    session.calls.abort();
    const unfinished = [...session.pending];
    for (const call of unfinished) call.deferred.dispose();
    await Promise.all(unfinished.map((call) => call.done));
    main?.dispose();
    ctx.dispose();
    vm.dispose();
  }
}
