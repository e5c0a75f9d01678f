import { errorMessage } from '../../core/errors.js';
import type { TurnStatus } from '../../core/events.js';
import { INTERRUPTED_DETAIL, type RunCancelWatch, type RunOutcome, type ScheduledTask, type ScheduleStore, type TaskRun } from '../../store/schedules.js';
import { dueFirings, nextFiringOf } from './firings.js';
import { newRunSessionId } from './taskSessions.js';

// The scheduler loop of one process: finds the due firings of the tasks of the syndicates it serves,
// decides each once (the store's run record is the claim, unique per firing across processes), runs
// a claimed firing's message as a turn through `runTurn` (the face's: the server runs it in its
// session line, so a client following the session sees it live), and records how it ended. While
// runs go, their leases are renewed; a process that dies stops renewing, and the next scheduler to
// look marks its runs interrupted. A cancel (ScheduleStore.cancelRuns, from any process) records
// the run interrupted, and this process, hearing it (watchCancels), or else seeing at its next
// heartbeat that it no longer holds the run, stops the run's turn.
//
// With a shared queue (PostgreSQL, several processes: scheduler/pgBoss), a due firing is sent to the
// queue instead of claimed here, and whichever process takes it from the queue claims and runs it
// (take()); the claim stays, so the run record is still the one decision. A firing its process
// died running is offered again by the queue, and take() runs its interrupted record again.

/** How a turn ended: the turn-end event's status and text. */
export interface TaskTurnEnd {
  status: TurnStatus;
  output: string;
  error?: string;
}

export interface TaskTurnRequest {
  task: ScheduledTask;
  sessionId: string;
  message: string;
  /** Aborted when the run is cancelled, its lease is lost (another process took it over), or the scheduler closes. */
  signal: AbortSignal;
}

/** One firing of a task, as the shared queue carries it. */
export interface Firing {
  taskId: string;
  scheduledFor: number;
}

/** The queue several processes share firings through; each firing is sent once whatever number of processes send it. */
export interface FiringQueue {
  send(firing: Firing): Promise<void>;
}

/** Runs one turn to its end the way the face runs turns; rejects only on a bug. */
export type RunTaskTurn = (request: TaskTurnRequest) => Promise<TaskTurnEnd>;

export interface TaskSchedulerOptions {
  store: ScheduleStore;
  /** This process's name in leases (unique per process). */
  runner: string;
  /** The syndicates this process serves, by name: it decides firings of their tasks only. */
  syndicates: () => readonly string[];
  runTurn: RunTaskTurn;
  /** Where due firings go when several processes share the work; without it, this process claims and runs them. */
  queue?: FiringQueue;
  warn: (message: string) => void;
  /** Hands each run (to its record written) to the face's tracker, so closing the store waits for it. */
  track?: (work: Promise<void>) => void;
  /** Milliseconds since the epoch; tests pass a fake clock. */
  now?: () => number;
  /** A run's lease: renewed every third of it; 30 s by default. */
  leaseMs?: number;
  /** The longest the loop sleeps, to see tasks other processes added; 1 s by default. */
  pollMs?: number;
  /** A firing older than this when first seen was missed (no server ran): catch_up decides; 60 s by default. */
  graceMs?: number;
}

export interface TaskScheduler {
  /** Decides every due firing now and starts the claimed runs (tests drive it with a fake clock). */
  tick(): Promise<void>;
  /**
   * Runs a firing the shared queue handed this process: claims it (or runs again the record a dead
   * process left interrupted), and resolves once the run's end is recorded; at once when another
   * process has it, or it was skipped.
   */
  take(firing: Firing): Promise<void>;
  /** Ticks on a timer, waking for the next firing (at most pollMs apart), and hears cancels. */
  start(): Promise<void>;
  /** Claims nothing more; resolves once every run this process started has its record written. */
  close(): Promise<void>;
  /** Resolves once the runs started so far have ended and been recorded. */
  idle(): Promise<void>;
}

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_POLL_MS = 1_000;
const DEFAULT_GRACE_MS = 60_000;
const CLAIM_CONCURRENCY = 8;
// Never spin: a wake-up for a firing due "now" still waits this long.
const MIN_SLEEP_MS = 5;

const iso = (ms: number): string => new Date(ms).toISOString();

/** The session a firing runs in: the task's fixed one, or one of its own, its owner's (see taskSessions.ts). */
export function runSessionId(task: ScheduledTask, scheduledFor: number): string {
  return task.session === 'new' ? newRunSessionId(task.runAs, task.id, scheduledFor) : task.session.fixed;
}

/** A turn's end as a run outcome: an empty answer is no_response; a cancelled turn was interrupted. */
export function outcomeOf(end: TaskTurnEnd, endedAt: number): RunOutcome {
  switch (end.status) {
    case 'completed':
      return end.output.trim() === ''
        ? { status: 'no_response', answer: null, detail: 'the turn ended without an answer', endedAt }
        : { status: 'answered', answer: end.output, detail: null, endedAt };
    case 'input-required':
      return { status: 'no_response', answer: end.output || null, detail: 'the agent asked a question (ask_user), and nobody is there to answer a scheduled run', endedAt };
    case 'cancelled':
      return { status: 'interrupted', answer: null, detail: end.error ?? 'the turn was cancelled (the server stopped, or someone cancelled the session)', endedAt };
    case 'failed':
      return { status: 'failed', answer: null, detail: end.error ?? 'the turn failed', endedAt };
  }
}

export function createTaskScheduler(options: TaskSchedulerOptions): TaskScheduler {
  const { store, runner, warn } = options;
  const now = options.now ?? Date.now;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  /** Runs whose end is being recorded. */
  const ending = new Set<string>();
  /** Runs a cancel stopped: their record says so already, and their runner's late finish is no lost lease. */
  const cancelled = new Set<string>();
  let cancels: RunCancelWatch | undefined;
  /** The latest firing of each task this process sent to the shared queue. */
  const sent = new Map<string, number>();
  let lastHeartbeat = now();
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> = Promise.resolve();

  const run = (task: ScheduledTask, record: TaskRun): Promise<void> => {
    const controller = new AbortController();
    const done = (async () => {
      let outcome: RunOutcome;
      try {
        const end = await options.runTurn({ task, sessionId: record.sessionId!, message: task.message, signal: controller.signal });
        outcome = outcomeOf(end, now());
      } catch (error) {
        outcome = { status: 'failed', answer: null, detail: errorMessage(error), endedAt: now() };
      }
      // Its record is being written: a heartbeat racing the write finds it no longer running, which is no lost lease.
      ending.add(record.id);
      if (!(await store.finish(record.id, runner, outcome)) && !cancelled.has(record.id)) {
        warn(`warning: run ${record.id} of task '${task.name}' ended (${outcome.status}) after this process lost its lease; its record says what the other process decided`);
      }
    })()
      .catch((error: unknown) => warn(`warning: could not record the end of run ${record.id} of task '${task.name}': ${errorMessage(error)}`))
      .finally(() => {
        running.delete(record.id);
        ending.delete(record.id);
        cancelled.delete(record.id);
      });
    running.set(record.id, { controller, done });
    options.track?.(done);
    return done;
  };

  const heartbeat = async (at: number): Promise<void> => {
    lastHeartbeat = at;
    const ids = [...running.keys()];
    if (ids.length === 0) return;
    const held = new Set(await store.heartbeat(ids, runner, at + leaseMs));
    for (const id of ids) {
      if (held.has(id) || ending.has(id) || !running.has(id) || cancelled.has(id)) continue;
      const record = await store.getRun(id);
      // A cancel this process did not hear (SQLite, another process) leaves its own detail; only the crash rule's is a lost lease.
      if (record?.status === 'interrupted' && record.detail !== INTERRUPTED_DETAIL) {
        stop([id]);
        continue;
      }
      warn(`warning: run ${id} lost its lease (this process stalled past it, and the run was marked interrupted); stopping its turn`);
      running.get(id)?.controller.abort();
    }
  };

  /** Stops the turns of the runs a cancel recorded interrupted, those this process runs. */
  const stop = (runIds: readonly string[]): void => {
    for (const id of runIds) {
      const entry = running.get(id);
      if (!entry) continue;
      cancelled.add(id);
      entry.controller.abort();
    }
  };

  /** Decides a task's due firings: claims them here, or with a shared queue adds them to `due`, which the tick sends (sendDue). */
  const decide = async (task: ScheduledTask, at: number, due: Firing[]): Promise<void> => {
    const { onTime, missed } = dueFirings(task, at, graceMs);
    const claim = async (scheduledFor: number): Promise<void> => {
      if (options.queue) {
        // Sent once from here: until a process claims it, the task's next tick sees the firing due again.
        if ((sent.get(task.id) ?? -Infinity) < scheduledFor) due.push({ taskId: task.id, scheduledFor });
        return;
      }
      const result = await store.claim({ taskId: task.id, scheduledFor, runner, now: at, leaseMs, sessionId: runSessionId(task, scheduledFor) });
      if (result.outcome === 'claimed') void run(task, result.run);
    };
    if (missed) {
      if (task.catchUp === 'last' && onTime.length === 0) {
        if (missed.earliest !== missed.latest) {
          await store.skip(task.id, missed.earliest, `the firings from ${iso(missed.earliest)} until before ${iso(missed.latest)} were missed while no server ran; catch_up: last runs only the latest`);
        }
        await claim(missed.latest);
      } else {
        const span = missed.earliest === missed.latest ? `the firing at ${iso(missed.latest)} was` : `the firings from ${iso(missed.earliest)} to ${iso(missed.latest)} were`;
        const why = task.catchUp === 'last' ? 'catch_up: last, and a newer firing is on time' : 'catch_up: none';
        await store.skip(task.id, missed.latest, `${span} missed while no server ran (${why})`);
      }
    }
    for (const scheduledFor of onTime) await claim(scheduledFor);
  };

  /**
   * Sends a tick's due firings to the shared queue at once, so they go in one INSERT: sent as each
   * task was decided, 1,000 firings due in one second went as ~125 inserts of 8 per process (the
   * decide workers each awaited their send), the last of them ~0.5-3 s after the second on a loaded
   * machine (dispatch bench, pg-boss's created_on). A firing whose send failed is sent again by the
   * next tick.
   */
  const sendDue = async (queue: FiringQueue, due: readonly Firing[]): Promise<void> => {
    const results = await Promise.allSettled(due.map((firing) => queue.send(firing)));
    let failed: unknown;
    due.forEach((firing, i) => {
      const result = results[i]!;
      if (result.status === 'rejected') failed = result.reason;
      else sent.set(firing.taskId, Math.max(sent.get(firing.taskId) ?? firing.scheduledFor, firing.scheduledFor));
    });
    if (failed !== undefined) warn(`warning: could not send due firings to the shared queue: ${errorMessage(failed)}; the next tick sends them again`);
  };

  const tick = async (): Promise<void> => {
    const at = now();
    if (at - lastHeartbeat >= leaseMs / 3) await heartbeat(at);
    if (closed) return;
    await store.interruptExpired(at);
    const syndicates = options.syndicates();
    if (syndicates.length === 0) return;
    const tasks = await store.list(syndicates);
    const due: Firing[] = [];
    let next = 0;
    // Tasks are independent: a few decided at once hide a network store's round trips.
    const worker = async (): Promise<void> => {
      while (next < tasks.length) {
        const task = tasks[next++]!;
        try {
          await decide(task, at, due);
        } catch (error) {
          warn(`warning: could not decide the firings of task '${task.name}' of ${task.syndicate}: ${errorMessage(error)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CLAIM_CONCURRENCY, tasks.length) }, worker));
    if (options.queue && due.length > 0) await sendDue(options.queue, due);
  };

  const take = async ({ taskId, scheduledFor }: Firing): Promise<void> => {
    // Refused, not dropped: the queue offers the firing to another process (a retry).
    if (closed) throw new Error('this process is stopping, so it runs no more firings');
    const task = await store.get(taskId);
    if (!task) return;
    const firing = { taskId, scheduledFor, runner, now: now(), leaseMs, sessionId: runSessionId(task, scheduledFor) };
    const result = await store.claim(firing);
    if (result.outcome === 'skipped') return;
    // taken (or inactive: a one-time task is deactivated by its claim): a retry finds the record a dead process left.
    const record = result.outcome === 'claimed' ? result.run : await store.retake(firing);
    if (record) await run(task, record);
  };

  /**
   * The task as this process has decided it: a firing it sent to the shared queue counts as decided
   * although no process has claimed it yet. Otherwise a one-time task sent but not yet claimed is
   * due "now" at every wake-up, and the loop re-read and re-decided every task every MIN_SLEEP_MS
   * until the queue drained (the dispatch bench: ~70 reads of 1,000 tasks per process, a second of
   * its CPU, in the seconds the claims needed it).
   */
  const asDecided = (task: ScheduledTask): ScheduledTask => {
    const latest = sent.get(task.id);
    return latest === undefined ? task : { ...task, lastScheduledFor: Math.max(task.lastScheduledFor ?? latest, latest) };
  };

  /** How long to sleep: until the next firing of a served task, at most pollMs. */
  const sleepMs = async (): Promise<number> => {
    const at = now();
    let next = at + pollMs;
    const syndicates = options.syndicates();
    if (syndicates.length > 0) {
      for (const task of await store.list(syndicates)) next = Math.min(next, nextFiringOf(asDecided(task), at) ?? next);
    }
    return Math.max(MIN_SLEEP_MS, Math.min(next - at, pollMs, leaseMs / 3));
  };

  const loop = (): void => {
    ticking = tick()
      .then(sleepMs)
      .catch((error: unknown) => {
        warn(`warning: the task scheduler could not read its tasks: ${errorMessage(error)}; trying again in ${pollMs} ms`);
        return pollMs;
      })
      .then((ms) => {
        if (!closed || running.size > 0) timer = setTimeout(loop, ms);
      });
  };

  return {
    tick: () => (ticking = ticking.then(tick)),
    take,
    async start() {
      if (timer !== undefined || closed) return;
      loop();
      const watch = await store.watchCancels(stop, (error) =>
        warn(`warning: cancels of task runs from other processes reach this one at its runs' next heartbeat only (every ${Math.round(leaseMs / 3000)} s): ${errorMessage(error)}`),
      );
      // Closed while the watch was being set up: close() found none to stop.
      if (closed) await watch.stop();
      else cancels = watch;
    },
    async close() {
      closed = true;
      await cancels?.stop();
      await ticking;
      await Promise.all([...running.values()].map((entry) => entry.done));
      clearTimeout(timer);
    },
    async idle() {
      await ticking;
      await Promise.all([...running.values()].map((entry) => entry.done));
    },
  };
}
