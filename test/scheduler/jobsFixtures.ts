import { z } from 'zod';
import { defineTool, type AnyTool } from '../../src/core/tool.js';
import type { TurnEvent } from '../../src/core/events.js';
import type { CompiledSyndicate } from '../../src/runtime/compileSyndicate.js';
import { runTurn } from '../../src/runtime/runTurn.js';
import { createJobRunner, type JobRunner, type JobRunnerOptions } from '../../src/scheduler/jobs/index.js';
import type { JobReport } from '../../src/store/backgroundJobs.js';
import type { Store } from '../../src/store/store.js';

// Helpers of the background-job tests: a tool that holds a piece until released (or aborted), and a
// job runner whose deliverReport runs the report turn in the originating session, as a face does.

/** A tool that waits until `release` is called or the turn is aborted; `called` resolves on its first call. */
export function holdTool(name = 'hold'): { tool: AnyTool; release(): void; called: Promise<void>; aborted: Promise<void> } {
  let release!: () => void;
  let markCalled!: () => void;
  let markAborted!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const called = new Promise<void>((resolve) => (markCalled = resolve));
  const aborted = new Promise<void>((resolve) => (markAborted = resolve));
  const tool = defineTool({
    name,
    description: 'Waits for the test.',
    inputSchema: z.object({}),
    async execute(_input, ctx) {
      markCalled();
      await new Promise<void>((resolve, reject) => {
        void released.then(() => resolve());
        ctx.signal.addEventListener('abort', () => {
          markAborted();
          reject(ctx.signal.reason as Error);
        }, { once: true });
      });
      return 'released';
    },
  });
  return { tool, release, called, aborted };
}

export interface Delivered {
  sessionId: string;
  text: string;
  report: JobReport;
  events: TurnEvent[];
}

/** A runner on `store` whose reports run as turns of `syndicate`, recorded in `delivered`. */
export function testRunner(store: Store, syndicate: CompiledSyndicate, delivered: Delivered[], options: Partial<JobRunnerOptions> = {}): JobRunner {
  const runner: JobRunner = createJobRunner({
    store,
    syndicates: () => new Map([[syndicate.name, syndicate]]),
    async deliverReport(sessionId, text, report) {
      const events: TurnEvent[] = [];
      for await (const event of runTurn(syndicate, { input: text, sessionId, store, background: runner })) events.push(event);
      delivered.push({ sessionId, text, report, events });
    },
    pieceTurn: async () => ({ options: { retry: { maxRetries: 0 } } }),
    warn: (message) => {
      throw new Error(`unexpected runner warning: ${message}`);
    },
    ...options,
  });
  return runner;
}

/** Resolves once `check` holds, polling the store (a piece's progress is not an event the test can await). */
export async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting until ${what}`);
}
