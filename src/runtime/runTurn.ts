import { randomUUID } from 'node:crypto';
import { ModelConfigError } from '../models/errors.js';
import { retryPolicyOf, type RetryPolicy } from '../models/retry.js';
import type { Store } from '../store/store.js';
import type { CompiledSyndicate } from './compileSyndicate.js';
import { errorMessage } from '../core/errors.js';
import { CancelReason, TurnError } from './errors.js';
import { isPersisted, type TurnEvent, type TurnEventBody, type TurnObserver, type TurnStatus } from '../core/events.js';
import { createEventChannel } from './eventChannel.js';
import { checkDeadline, deadlineError, turnSignal } from './deadline.js';
import { runAgent } from './runAgent.js';
import { sessionTurnEnded, sessionTurnStarted } from './sessionActivity.js';
import { cachedHistory, loadSessionHistory, recordAppended } from './sessionHistory.js';
import type { TurnContext } from './turnContext.js';
import { createTurnWrites } from './turnWrites.js';
import type { TurnRecord } from './projectTranscript.js';
import type { TurnMemory } from '../memory/turnMemory.js';
import { UserInputRequired } from '../tools/builtin/askUser.js';
import type { BackgroundCapability } from './background.js';

export interface RunTurnOptions {
  input: string;
  /** The conversation this turn belongs to; persisted when a store is given and memory_system allows. */
  sessionId?: string;
  /** sessionId was minted for this turn (a random UUID): no stored session has it, so none is looked for. */
  newSession?: boolean;
  store?: Store;
  signal?: AbortSignal;
  /**
   * Stream text and thinking deltas as the model produces them (default). With false each
   * model step is fetched whole and its text arrives as one delta: cheaper when no one
   * watches the answer being written (batch jobs, non-streaming protocol calls).
   */
  stream?: boolean;
  now?: () => Date;
  /**
   * Called with every event, in order, before the face sees it (telemetry, ledgers). An
   * observer that throws is detached with a warning event; the turn goes on.
   */
  observers?: readonly TurnObserver[];
  /** Retries of transient model failures (429, 5xx, network, timeouts); unset fields keep their defaults. */
  retry?: Partial<RetryPolicy>;
  /** Stops the whole turn after this many milliseconds: it ends failed with error code `deadline`. Default: the file's `deadline`, else none. */
  deadlineMs?: number;
  /** Long-term memory for this turn's silo (memory_system: long-term): memory tools and preload_memory use it. */
  memory?: TurnMemory;
  /**
   * Told of each batch of stored events once it is durable, with the seq of its last event (the
   * batch's seqs run up to it without gaps): a server streams stored events with their seq.
   */
  committed?: (batch: readonly TurnEvent[], lastSeq: number) => void;
  /** Background jobs (delegate_background, parallel_subtasks…): the scheduler layer's job runner, which the face passes in. */
  background?: BackgroundCapability;
}

const NO_HISTORY: readonly TurnRecord[] = [];

/**
 * Runs one user turn. The stream always ends with exactly one `turn-end` event, whatever
 * happens; the user's message is stored before the first model call, and the events of every
 * step boundary go to the store at once without the turn waiting (turnWrites.ts), so a crash
 * loses at most the step in flight and a step that ended while the one before was still being stored.
 */
export function runTurn(syndicate: CompiledSyndicate, options: RunTurnOptions): AsyncIterable<TurnEvent> {
  // Bad limits are the caller's mistake: refused here, before the turn starts.
  retryPolicyOf(options.retry);
  checkDeadline(options.deadlineMs);
  const channel = createEventChannel<TurnEvent>();
  const push = (event: TurnEvent): void => channel.push(event);
  void executeTurn(syndicate, options, options.observers?.length ? observed(options.observers, push) : push).finally(() => channel.close());
  return channel;
}

/** A cancelled turn's error: why, when whoever cancelled it said so (a CancelReason). */
function cancelledMessage(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof CancelReason ? `the turn was cancelled: ${reason.message}` : 'the turn was cancelled';
}

function observed(observers: readonly TurnObserver[], push: (event: TurnEvent) => void): (event: TurnEvent) => void {
  const active = [...observers];
  return (event) => {
    for (let i = 0; i < active.length; i++) {
      try {
        active[i]!(event);
      } catch (error) {
        active.splice(i--, 1);
        const message = `an event observer failed and was detached for the rest of the turn: ${errorMessage(error)}`;
        push({ turnId: event.turnId, agent: event.agent, depth: event.depth, at: Date.now(), type: 'warning', message });
      }
    }
    push(event);
  };
}

async function executeTurn(syndicate: CompiledSyndicate, options: RunTurnOptions, listener: (event: TurnEvent) => void): Promise<TurnStatus> {
  const { store, sessionId } = options;
  const persist = store !== undefined && sessionId !== undefined && syndicate.memorySystem !== 'internal-only';
  // The caller's limits win over the file's `timeout` and `deadline`.
  const retry = retryPolicyOf({ ...options.retry, attemptTimeoutMs: options.retry?.attemptTimeoutMs ?? syndicate.attemptTimeoutMs });
  const { signal, clear: clearDeadline } = turnSignal(options.signal, options.deadlineMs ?? syndicate.deadlineMs);
  const turnId = randomUUID();
  const root = syndicate.root;
  // Bodies are fresh literals at every call site, so the envelope is added in place: copying
  // each event was the largest single cost of the turn loop in profiles.
  const stamp = (agent: string, depth: number, body: TurnEventBody, delegationId?: string): TurnEvent => {
    const event = body as TurnEvent;
    event.turnId = turnId;
    event.agent = agent;
    event.depth = depth;
    event.at = Date.now();
    // Set even when undefined (JSON leaves it out): every event keeps one shape.
    event.delegationId = delegationId;
    return event;
  };

  const writes = persist
    ? createTurnWrites(store, sessionId, (batch, lastSeq) => {
        recordAppended(store, sessionId, batch, lastSeq);
        options.committed?.(batch, lastSeq);
      })
    : undefined;

  const turn: TurnContext = {
    turnId,
    sessionId,
    syndicate,
    signal,
    retry,
    stream: options.stream ?? true,
    memory: options.memory,
    history: NO_HISTORY,
    now: options.now?.() ?? new Date(),
    notes: persist ? store.notes : undefined,
    background: options.background,
    delegationId: undefined,
    emit(agent: string, depth: number, body: TurnEventBody) {
      // `this`: the context of the run emitting, which carries its delegation's id.
      const event = stamp(agent, depth, body, this.delegationId);
      if (writes !== undefined && isPersisted(event)) writes.add(event);
      listener(event);
    },
    flush: () => writes?.cut(),
  };

  if (persist) sessionTurnStarted(store, sessionId);
  let status: TurnStatus = 'completed';
  let output = '';
  let failure: string | undefined;
  let interrupted = false;
  try {
    // A session this process has cached is not read first: its first batch opens it (one round
    // trip on PostgreSQL), and the seq that batch gets says whether the cache is still current.
    const cached = persist && !options.newSession ? cachedHistory(store, sessionId) : undefined;
    if (persist && cached === undefined) {
      const session = await store.openSession(sessionId, syndicate.name, { isNew: options.newSession });
      turn.history = await loadSessionHistory(store, sessionId, session.eventCount);
    }
    turn.emit(root.name, 0, { type: 'turn-start', syndicate: syndicate.name, input: options.input });
    // Every agent's servers connect in the background while the first agents think; a no-op once connected.
    syndicate.openConnections();
    // Stored before the first model call: a crash during it must not lose the user's message.
    if (persist && cached !== undefined) {
      const before = (await writes!.commit({ openFor: syndicate.name }))!;
      turn.history = before === cached.lastSeq ? cached.turns : await loadSessionHistory(store, sessionId, before);
    } else {
      await writes?.commit();
    }
    output = await runAgent(turn, root, options.input, 0);
  } catch (caught) {
    if (caught instanceof UserInputRequired && !signal.aborted) {
      // Not a failure: the turn waits for the user's answer, which comes as the next turn.
      status = 'input-required';
      output = caught.question;
    } else {
      // A passed deadline is a failure, not a cancel: nobody asked the turn to stop.
      const deadline = deadlineError(signal);
      const error = deadline ?? caught;
      const cancelled = signal.aborted && deadline === undefined;
      status = cancelled ? 'cancelled' : 'failed';
      failure = cancelled ? cancelledMessage(signal) : errorMessage(error);
      interrupted = cancelled && signal.reason instanceof CancelReason && signal.reason.shutdown;
      const code = cancelled ? 'cancelled' : error instanceof TurnError ? error.code : error instanceof ModelConfigError ? 'model_config' : 'model_error';
      turn.emit(root.name, 0, { type: 'error', message: failure, code });
    }
  } finally {
    clearDeadline();
  }
  // Working notes last while the session has a turn running; the last one to end clears them,
  // with its last batch (one round trip on PostgreSQL).
  const clearNotes = persist && sessionTurnEnded(store, sessionId);
  // turn-end is stored with the last batch but shown only after that batch commits, so a
  // listener never sees a turn as finished that the store does not have.
  const turnEnd = stamp(root.name, 0, { type: 'turn-end', status, output, ...(failure ? { error: failure } : {}), ...(interrupted ? { interrupted: true } : {}) });
  writes?.add(turnEnd);
  try {
    await writes?.commit({ clearNotes });
  } catch (error) {
    const message = `the session could not be saved: ${errorMessage(error)}`;
    listener(stamp(root.name, 0, { type: 'error', code: 'store_error', message }));
    listener(stamp(root.name, 0, { type: 'turn-end', status: 'failed', output, error: message }));
    return 'failed';
  }
  listener(turnEnd);
  return status;
}
