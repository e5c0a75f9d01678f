import type { TurnEvent, TurnEventOf, TurnObserver, TurnStatus } from '../../core/events.js';
import type { SkillUse, Store, UsageRow } from '../../store/store.js';

export interface UsageLedgerOptions {
  store: Pick<Store, 'recordUsage'>;
  syndicate: string;
  /** null when the syndicate keeps no sessions (memory_system: internal-only). */
  sessionId: string | null;
  /** Told about the first write that fails; later failures are dropped, so a person hears once. */
  onError(error: unknown): void;
}

export interface UsageLedger {
  /** Give it to runTurn as one of `observers`; it may watch any number of turns. */
  observe: TurnObserver;
  /** Writes what is buffered and resolves once the rows of every turn that has ended are written (or failed): await it before closing the store. */
  settled(): Promise<void>;
}

const FLUSH_AT_ROWS = 256;
const FLUSH_AFTER_MS = 1_000;

function rowOf(event: TurnEventOf<'usage'>, syndicate: string, sessionId: string | null, turnStatus: TurnStatus, skills: readonly SkillUse[]): UsageRow {
  return {
    at: event.at,
    syndicate,
    sessionId,
    turnId: event.turnId,
    agent: event.agent,
    provider: event.provider,
    model: event.model,
    inputTokens: event.inputTokens,
    outputTokens: event.outputTokens,
    reasoningTokens: event.reasoningTokens,
    cachedInputTokens: event.cachedInputTokens,
    latencyMs: event.latencyMs,
    outcome: event.outcome,
    turnStatus,
    ...(skills.length > 0 ? { skills: [...skills] } : {}),
  };
}

/** Resolves on the next turn of the event loop, after the turn's last event has reached every face. */
function nextTick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Records every model call of the turns it observes. Rows are held until their turn ends, so the
 * turn's status is known when they are written, then written in batches off the turn loop, which
 * never waits on the ledger; a failed write is reported through `onError`, never to the turn.
 */
export function createUsageLedger({ store, syndicate, sessionId, onError }: UsageLedgerOptions): UsageLedger {
  // The usage events of each turn still running; a row is built once, when its turn's status is known.
  const open = new Map<string, Array<TurnEventOf<'usage'>>>();
  // The skills each running turn has activated: every row of the turn names them.
  const skillsOf = new Map<string, SkillUse[]>();
  let ready: UsageRow[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writes: Promise<void> = Promise.resolve();
  let failed = false;

  const report = (error: unknown): void => {
    if (failed) return;
    failed = true;
    onError(error);
  };

  const write = async (rows: UsageRow[]): Promise<void> => {
    await nextTick();
    try {
      await store.recordUsage(rows);
    } catch (error) {
      report(error);
    }
  };

  const flush = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    if (ready.length === 0) return writes;
    const rows = ready;
    ready = [];
    // Chained so batches are written in the order their turns ended.
    writes = writes.then(() => write(rows));
    return writes;
  };

  const observe = (event: TurnEvent): void => {
    if (event.type === 'skill-activated') {
      const skills = skillsOf.get(event.turnId);
      const used = { name: event.skill, hash: event.hash };
      if (!skills) skillsOf.set(event.turnId, [used]);
      else if (!skills.some((skill) => skill.name === used.name && skill.hash === used.hash)) skills.push(used);
    } else if (event.type === 'usage') {
      const calls = open.get(event.turnId);
      if (calls) calls.push(event);
      else open.set(event.turnId, [event]);
    } else if (event.type === 'turn-end') {
      const calls = open.get(event.turnId);
      const skills = skillsOf.get(event.turnId) ?? [];
      open.delete(event.turnId);
      skillsOf.delete(event.turnId);
      if (!calls) return;
      for (const call of calls) ready.push(rowOf(call, syndicate, sessionId, event.status, skills));
      // One commit per batch of turns, not per turn: a commit costs as much as a whole turn's
      // framework work here (bench/observability.ts). A crash loses at most FLUSH_AFTER_MS of
      // ledger rows, never session events.
      if (ready.length >= FLUSH_AT_ROWS) void flush();
      else timer ??= setTimeout(flush, FLUSH_AFTER_MS).unref();
    }
  };

  return { observe, settled: flush };
}
