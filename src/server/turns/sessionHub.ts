import type { Concurrency } from '../../config/schema.js';
import { formatDuration } from '../../models/retry.js';
import { CancelReason } from '../../runtime/errors.js';
import { createLiveTurn, type LiveTurn } from './liveTurn.js';

// One line of turns per session: the running turn first, then those waiting behind it. A session's
// streams all follow the turn at the head of its line, so a second tab sees the same turn. A
// message that arrives while a turn runs follows the syndicate's `concurrency:` policy.

/** Runs the turn, pushing its events into `turn`; resolves once runTurn's stream is over. */
export type TurnRun = (turn: LiveTurn) => Promise<void>;

export type Admission = { admitted: true; turn: LiveTurn } | { admitted: false; reason: 'busy' | 'draining' };

export interface SessionHub {
  /**
   * enqueue: runs after the turns ahead; reject: refused while the session has a turn; interrupt:
   * cancels the turns ahead, then runs. Refused while draining.
   */
  admit(sessionId: string, policy: Concurrency, persisted: boolean, run: TurnRun): Admission;
  /** The turn the session's streams follow: the running one, else the next to run. */
  current(sessionId: string): LiveTurn | undefined;
  /** Calls `listener` with each turn admitted to the session from now on, in order. Returns the unwatch. */
  watch(sessionId: string, listener: (turn: LiveTurn) => void): () => void;
  /** Cancels the session's running and waiting turns; false when it had none. */
  cancel(sessionId: string): boolean;
  running(): number;
  drain(graceMs: number): Promise<{ finished: number; interrupted: number }>;
}

const INTERRUPTED = new CancelReason('interrupted by a newer message to the session (its syndicate sets concurrency: interrupt)');

export function createSessionHub(warn: (message: string) => void): SessionHub {
  const lines = new Map<string, LiveTurn[]>();
  const started = new Set<LiveTurn>();
  const watchers = new Map<string, Set<(turn: LiveTurn) => void>>();
  let draining = false;

  const leave = (turn: LiveTurn): void => {
    started.delete(turn);
    const line = lines.get(turn.sessionId);
    if (!line) return;
    line.splice(line.indexOf(turn), 1);
    if (line.length === 0) lines.delete(turn.sessionId);
  };

  const start = (turn: LiveTurn, ahead: Promise<void>, run: TurnRun): void => {
    void ahead
      .then(() => {
        started.add(turn);
        return run(turn);
      })
      .catch((error: unknown) => warn(`error: a turn of session ${turn.sessionId} failed outside the turn loop: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`))
      .finally(() => {
        // A run that failed before its turn-end still ends the turn for its streams.
        turn.finish();
        leave(turn);
      });
  };

  return {
    admit(sessionId, policy, persisted, run) {
      if (draining) return { admitted: false, reason: 'draining' };
      const line = lines.get(sessionId) ?? [];
      if (line.length > 0 && policy === 'reject') return { admitted: false, reason: 'busy' };
      if (policy === 'interrupt') for (const ahead of line) ahead.controller.abort(INTERRUPTED);
      const turn = createLiveTurn(sessionId, persisted, warn);
      const ahead = line.length > 0 ? line[line.length - 1]!.ended : Promise.resolve();
      line.push(turn);
      lines.set(sessionId, line);
      start(turn, ahead, run);
      for (const listener of watchers.get(sessionId) ?? []) listener(turn);
      return { admitted: true, turn };
    },
    current: (sessionId) => lines.get(sessionId)?.[0],
    watch(sessionId, listener) {
      const listeners = watchers.get(sessionId) ?? new Set();
      listeners.add(listener);
      watchers.set(sessionId, listeners);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) watchers.delete(sessionId);
      };
    },
    cancel(sessionId) {
      const line = lines.get(sessionId) ?? [];
      for (const turn of line) turn.controller.abort();
      return line.length > 0;
    },
    running: () => started.size,
    async drain(graceMs) {
      draining = true;
      const turns = [...lines.values()].flat();
      const all = Promise.all(turns.map((turn) => turn.ended));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([all, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
      const left = turns.filter((turn) => !turn.isEnded());
      const shutDown = new CancelReason(`interrupted: the server shut down, and the turn did not finish within the ${formatDuration(graceMs)} grace period`, true);
      for (const turn of left) turn.controller.abort(shutDown);
      await all;
      return { finished: turns.length - left.length, interrupted: left.length };
    },
  };
}
