import type { CompiledSyndicate } from '../runtime/compileSyndicate.js';
import { collectTurn } from '../runtime/collectTurn.js';
import { createJobRunner, type JobRunner } from '../scheduler/jobs/index.js';
import { playTurn } from './playTurn.js';
import type { TurnSession } from './turnSession.js';

// Background jobs in `syndicate chat`: the chat's own process runs their pieces, and a report turn
// runs in the chat's queue, so it waits behind the turn the person is having, like a message.

/** One turn at a time, in the order asked: the person's and the reports'. */
export interface TurnQueue {
  run<T>(turn: () => Promise<T>): Promise<T>;
}

export function turnQueue(): TurnQueue {
  let last: Promise<unknown> = Promise.resolve();
  return {
    run(turn) {
      const next = last.then(turn, turn);
      last = next.catch(() => undefined);
      return next;
    },
  };
}

function usesBackgroundJobs(syndicate: CompiledSyndicate): boolean {
  return [...syndicate.agents.values()].some((agent) => agent.backgroundTools.length > 0);
}

/** The chat's job runner; undefined when no agent lists a background tool or nothing is stored. */
export function chatJobRunner(session: TurnSession, queue: TurnQueue, signal: AbortSignal): JobRunner | undefined {
  const { store, syndicate } = session;
  if (!store || !usesBackgroundJobs(syndicate)) return undefined;
  const runner: JobRunner = createJobRunner({
    store,
    syndicates: () => new Map([[syndicate.name, syndicate]]),
    pieceTurn: async () => ({ options: { observers: session.observers } }),
    deliverReport: (sessionId, text) =>
      queue.run(async () => {
        const options = { ...session.turnOptions(text, signal), sessionId, background: runner };
        // A nested job reports into its parent piece's own session: a turn there, nobody watching.
        if (sessionId !== session.sessionId) return void (await collectTurn(syndicate, options));
        process.stdout.write(`${session.style.dim('── a background job has reported ──')}\n`);
        await playTurn(syndicate, options, session.printer, session.spinner);
        process.stdout.write('\n');
      }),
  });
  return runner;
}
