import type { RetryPolicy } from '../models/retry.js';
import type { CompiledSyndicate } from './compileSyndicate.js';
import type { TurnEventBody } from '../core/events.js';
import type { TurnRecord } from './projectTranscript.js';
import type { TurnMemory } from '../memory/turnMemory.js';
import type { SessionNotes } from '../core/notes.js';
import type { BackgroundCapability } from './background.js';

/** What every part of one running turn shares. */
export interface TurnContext {
  turnId: string;
  sessionId: string | undefined;
  syndicate: CompiledSyndicate;
  signal: AbortSignal;
  /** How model calls are retried and timed out. */
  retry: RetryPolicy;
  /** Call doStream (live deltas) rather than doGenerate. */
  stream: boolean;
  /** The silo's memory tools and preload recall; undefined when the face opened no memory. */
  memory: TurnMemory | undefined;
  /** Earlier turns of the session (empty when nothing is persisted). */
  history: readonly TurnRecord[];
  /** The turn's clock reading, for `{{current_date}}`. */
  now: Date;
  /** The session's scratchpad (the store's notes); undefined when the turn keeps no session. */
  notes: SessionNotes | undefined;
  /** Starts background jobs (scheduler/jobs); undefined when the face runs no job runner. */
  background: BackgroundCapability | undefined;
  /** The callId of the delegation this run serves (undefined for the root agent): stamped on its events. */
  delegationId: string | undefined;
  emit(agent: string, depth: number, body: TurnEventBody): void;
  /**
   * A step boundary: the events emitted so far go to the store, without waiting for it (turnWrites.ts).
   * Throws a TurnError when an earlier batch could not be stored.
   */
  flush(): void;
}

/**
 * The context of a delegated run. Written out rather than spread: spreading this object took V8's
 * slow copy path (~12 µs a delegation in profiles), and one literal shape keeps property reads fast.
 */
export function delegatedContext(turn: TurnContext, delegationId: string): TurnContext {
  return copyContext(turn, delegationId, turn.signal);
}

/** The same run under a narrower signal: a code-mode script's calls stop when the script ends. */
export function contextWithSignal(turn: TurnContext, signal: AbortSignal): TurnContext {
  return copyContext(turn, turn.delegationId, signal);
}

function copyContext(turn: TurnContext, delegationId: string | undefined, signal: AbortSignal): TurnContext {
  return {
    turnId: turn.turnId,
    sessionId: turn.sessionId,
    syndicate: turn.syndicate,
    signal,
    retry: turn.retry,
    stream: turn.stream,
    memory: turn.memory,
    history: turn.history,
    now: turn.now,
    notes: turn.notes,
    background: turn.background,
    delegationId,
    emit: turn.emit,
    flush: turn.flush,
  };
}
