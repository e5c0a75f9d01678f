import { isPersisted, type TurnEvent } from '../../core/events.js';

// One turn as its streams see it: its events in order, stored ones with their seq. runTurn hands an
// event on before its batch is in the store (a tool call is committed with its result), so seqs
// are predicted: the session has one writer (its line of turns), so the turn's k-th stored event is
// the one after its first batch's start + k. Until that first batch (turn-start, committed before
// any model call) is in, events are held; each later batch checks the prediction, and should it
// ever miss (another process appended to the session), stored events are held until committed
// from then on. The turn keeps what it released, so a stream that joins late replays it, then
// follows live.

/** An event as streams send it; seq is set on stored events. */
export interface StreamedEvent {
  event: TurnEvent;
  seq: number | undefined;
}

export interface TurnSubscriber {
  event(streamed: StreamedEvent): void;
  /** The turn has ended: its last event (turn-end) was sent. */
  end(): void;
}

export interface LiveTurn {
  readonly sessionId: string;
  /** The turn's own cancel: aborts runTurn's signal. */
  readonly controller: AbortController;
  /** Resolves once the turn has ended and every stream has been told. */
  readonly ended: Promise<void>;
  isEnded(): boolean;
  /** The next event runTurn gave, in order. */
  push(event: TurnEvent): void;
  /** runTurn's `committed`: a durable batch and its last seq. */
  committed(batch: readonly TurnEvent[], lastSeq: number): void;
  /** runTurn's stream is over: releases whatever is still held (a batch the store refused has no seqs) and tells every stream. */
  finish(): void;
  /** The seq of the last stored event released to streams so far; 0 before any. */
  lastSeq(): number;
  /**
   * Replays the released events after `afterSeq` (all of them when undefined or older than the
   * turn), then follows live ones. Returns the unsubscribe.
   */
  subscribe(afterSeq: number | undefined, subscriber: TurnSubscriber): () => void;
}

interface HeldEvent extends StreamedEvent {
  /** 1, 2, 3… over the turn's stored events; 0 on live-only ones. */
  ordinal: number;
}

/**
 * `persisted`: the turn's session is stored (not memory_system: internal-only), so stored events
 * carry their seq. `warn` hears of a missed prediction.
 */
export function createLiveTurn(sessionId: string, persisted: boolean, warn: (message: string) => void = () => undefined): LiveTurn {
  const released: StreamedEvent[] = [];
  const held: HeldEvent[] = [];
  // The store's seqs of committed events, and the seqs streams were given before the commit.
  const seqs = new WeakMap<TurnEvent, number>();
  const predicted = new WeakMap<TurnEvent, number>();
  let stored = 0;
  let committedCount = 0;
  let base: number | undefined;
  let exact = false;
  const subscribers = new Set<TurnSubscriber>();
  const controller = new AbortController();
  let ended = false;
  let markEnded!: () => void;
  const endedPromise = new Promise<void>((resolve) => (markEnded = resolve));

  const seqOf = (held: HeldEvent): number | undefined => seqs.get(held.event) ?? (base !== undefined && !exact && held.ordinal > 0 ? base + held.ordinal : undefined);
  const waitsForSeq = (streamed: HeldEvent): boolean => streamed.ordinal > 0 && streamed.seq === undefined;
  let lastReleased = 0;
  const release = ({ event, seq }: HeldEvent): void => {
    const streamed: StreamedEvent = { event, seq };
    if (seq !== undefined && !seqs.has(event)) predicted.set(event, seq);
    if (seq !== undefined && seq > lastReleased) lastReleased = seq;
    released.push(streamed);
    for (const subscriber of subscribers) subscriber.event(streamed);
  };
  const releaseReady = (): void => {
    while (held.length > 0 && !waitsForSeq(held[0]!)) release(held.shift()!);
  };

  return {
    sessionId,
    controller,
    ended: endedPromise,
    isEnded: () => ended,
    lastSeq: () => lastReleased,
    push(event) {
      const entry: HeldEvent = { event, seq: undefined, ordinal: persisted && isPersisted(event) ? ++stored : 0 };
      entry.seq = seqOf(entry);
      held.push(entry);
      releaseReady();
    },
    committed(batch, lastSeq) {
      // The batch may commit before its events reach push (runTurn's channel is read asynchronously).
      base ??= lastSeq - committedCount - batch.length;
      committedCount += batch.length;
      batch.forEach((event, i) => {
        const seq = lastSeq - batch.length + 1 + i;
        seqs.set(event, seq);
        const told = predicted.get(event);
        if (told !== undefined && told !== seq && !exact) {
          exact = true;
          warn(`warning: session ${sessionId} was appended to by another writer during a turn: streamed event ${told} is stored as ${seq}; this turn's events now wait for their commit`);
        }
      });
      for (const streamed of held) streamed.seq ??= seqOf(streamed);
      releaseReady();
    },
    finish() {
      if (ended) return;
      while (held.length > 0) release(held.shift()!);
      ended = true;
      for (const subscriber of subscribers) subscriber.end();
      subscribers.clear();
      markEnded();
    },
    subscribe(afterSeq, subscriber) {
      let from = 0;
      if (afterSeq !== undefined) {
        for (let i = released.length - 1; i >= 0; i--) {
          const seq = released[i]!.seq;
          if (seq !== undefined && seq <= afterSeq) {
            from = i + 1;
            break;
          }
        }
      }
      for (let i = from; i < released.length; i++) subscriber.event(released[i]!);
      if (ended) {
        subscriber.end();
        return () => undefined;
      }
      subscribers.add(subscriber);
      return () => void subscribers.delete(subscriber);
    },
  };
}
