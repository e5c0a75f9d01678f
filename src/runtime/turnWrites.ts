import type { TurnEvent } from '../core/events.js';
import { errorMessage } from '../core/errors.js';
import type { AppendOptions, Store } from '../store/store.js';
import { TurnError } from './errors.js';

// A turn's session writes. Its events are cut into a batch at every step boundary, and the turn
// waits for the store only where it needs the answer: its first batch (the seq it gets says
// whether the cached history is current) and its last (turn-end is shown only once stored). A
// batch nothing waits for goes to the store when this turn of the event loop ends (setImmediate),
// so it is on its way while the next step runs, or with the next commit the turn waits for,
// whichever comes first: step boundaries with no I/O between them share one append. Every append
// on PostgreSQL is a round trip, and awaiting one per step boundary made a persisted turn 4.6x
// SQLite's (bench/postgres.ts).
// One append is in flight at a time, so batches are stored in the order they were cut; those cut
// meanwhile go together in the next. After a failure nothing more is appended, and the turn fails
// at its next step boundary (or at its end): nothing is lost silently.

export interface TurnWrites {
  /** An event to store with the next batch. */
  add(event: TurnEvent): void;
  /**
   * A step boundary: the events added so far go to the store without the turn waiting for them.
   * Throws (a TurnError, which ends the turn) when an earlier batch could not be stored.
   */
  cut(): void;
  /**
   * Stores every event added so far and waits until all of them are durable. Resolves to the seq
   * before the turn's first stored event (undefined while it has stored none); rejects with the
   * store's error when a batch failed.
   */
  commit(append?: AppendOptions): Promise<number | undefined>;
}

/** `committed` hears of each batch once it is durable, with the seq of its last event. */
export function createTurnWrites(store: Store, sessionId: string, committed: (batch: readonly TurnEvent[], lastSeq: number) => void): TurnWrites {
  let added: TurnEvent[] = [];
  let cut: TurnEvent[] = [];
  let cutOptions: AppendOptions = {};
  let inFlight: Promise<void> | undefined;
  let failure: { error: unknown } | undefined;
  let firstBefore: number | undefined;

  // Batches merged into one append keep what each asked for: openFor (the turn's first batch)
  // creates the session before any of the events, clearNotes (its last) clears in the same append.
  const cutAdded = (append: AppendOptions | undefined): void => {
    cut.push(...added);
    added = [];
    if (append?.openFor !== undefined) cutOptions.openFor ??= append.openFor;
    if (append?.clearNotes) cutOptions.clearNotes = true;
  };

  const send = (): void => {
    if (inFlight !== undefined || failure !== undefined || cut.length === 0) return;
    const batch = cut;
    const append = cutOptions;
    cut = [];
    cutOptions = {};
    inFlight = store
      .appendEvents(sessionId, batch, append)
      .then((lastSeq) => {
        firstBefore ??= lastSeq - batch.length;
        committed(batch, lastSeq);
      })
      .catch((error: unknown) => {
        failure = { error };
      })
      .finally(() => {
        inFlight = undefined;
        send();
      });
  };

  return {
    add(event) {
      added.push(event);
    },
    cut() {
      if (failure !== undefined) throw new TurnError('store_error', `the session could not be saved: ${errorMessage(failure.error)}`);
      cutAdded(undefined);
      send();
    },
    async commit(append) {
      cutAdded(append);
      send();
      // Each settled append starts the next, if more was cut meanwhile.
      while (inFlight !== undefined) await inFlight;
      if (failure !== undefined) throw failure.error;
      return firstBefore;
    },
  };
}
