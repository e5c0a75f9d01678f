import { isPersisted, type TurnEvent } from '../../core/events.js';

// One turn as its streams see it. runTurn hands an event to its consumer before the event's batch
// is in the store, so a stored event is held until the store has given it its seq (committed), and
// every event behind it waits too: streams get the turn's events in order, stored ones with their
// seq. The turn keeps what it released, so a stream that joins late replays it, then follows live.

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
  /**
   * Replays the released events after `afterSeq` (all of them when undefined or older than the
   * turn), then follows live ones. Returns the unsubscribe.
   */
  subscribe(afterSeq: number | undefined, subscriber: TurnSubscriber): () => void;
}

/** `persisted`: the turn's session is stored (not memory_system: internal-only), so stored events wait for their seq. */
export function createLiveTurn(sessionId: string, persisted: boolean): LiveTurn {
  const released: StreamedEvent[] = [];
  const held: StreamedEvent[] = [];
  const seqs = new WeakMap<TurnEvent, number>();
  const subscribers = new Set<TurnSubscriber>();
  const controller = new AbortController();
  let ended = false;
  let markEnded!: () => void;
  const endedPromise = new Promise<void>((resolve) => (markEnded = resolve));

  const waitsForSeq = (streamed: StreamedEvent): boolean => persisted && streamed.seq === undefined && isPersisted(streamed.event);
  const release = (streamed: StreamedEvent): void => {
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
    push(event) {
      held.push({ event, seq: seqs.get(event) });
      releaseReady();
    },
    committed(batch, lastSeq) {
      // The batch may commit before its events reach push (runTurn's channel is read asynchronously).
      batch.forEach((event, i) => seqs.set(event, lastSeq - batch.length + 1 + i));
      for (const streamed of held) streamed.seq ??= seqs.get(streamed.event);
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
