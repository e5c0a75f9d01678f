// Scheduled tasks (scheduler/tasks) and their run records: what the store keeps of them. The rules
// that make a firing run once, whatever number of processes share the database, live here: a run
// record is unique on (task, scheduled time), and it is written in the same transaction that
// checks for a run of the task still going.

/** At most this many active tasks per syndicate: a runaway agent cannot flood the scheduler. */
export const MAX_ACTIVE_TASKS = 100;

/** Where a task's runs go: a new session per run, or one fixed session id. */
export type TaskSessionMode = 'new' | { fixed: string };

/** none: a firing missed while no server ran is recorded skipped; last: the latest missed one runs. */
export type CatchUp = 'none' | 'last';

/** A task written in the syndicate file, or added at run time (API, CLI, an agent's tool). */
export type TaskOrigin = 'file' | 'runtime';

export interface TaskOwner {
  kind: 'user' | 'agent';
  /** A user's id, or the agent's name (with the session that asked, see requestedBy). */
  id: string;
}

export interface ScheduledTask {
  id: string;
  syndicate: string;
  /** Unique among the syndicate's active tasks. */
  name: string;
  /** A croner pattern (5 or 6 fields, seconds first when 6); null for a one-time task. */
  cron: string | null;
  /** The IANA time zone the cron pattern is read in. */
  timezone: string;
  /** A one-time task's instant (ms since the epoch); null for a cron task. */
  at: number | null;
  message: string;
  session: TaskSessionMode;
  owner: TaskOwner;
  /** The user the runs are for: their long-term memory silo is the one a run's turn uses. */
  runAs: string;
  /** The session whose turn asked for the task (an agent's schedule_task); null otherwise. */
  requestedBy: string | null;
  origin: TaskOrigin;
  active: boolean;
  catchUp: CatchUp;
  createdAt: number;
  /** The latest scheduled time a run record exists for; firings up to it are decided. */
  lastScheduledFor: number | null;
}

export type NewTask = Omit<ScheduledTask, 'active' | 'lastScheduledFor'>;

export type RunStatus = 'running' | 'answered' | 'failed' | 'no_response' | 'interrupted' | 'skipped';

/** An interrupted run's detail: a crash leaves no other trace. */
export const INTERRUPTED_DETAIL = 'the process running it stopped before the run ended (its lease expired)';

export interface TaskRun {
  id: string;
  taskId: string;
  syndicate: string;
  /** The firing's scheduled time (ms since the epoch); unique per task. */
  scheduledFor: number;
  /** null for a skipped firing, which never started. */
  startedAt: number | null;
  endedAt: number | null;
  status: RunStatus;
  /** The session the run's turn ran in; null for a skipped firing. */
  sessionId: string | null;
  answer: string | null;
  /** Why it failed, was skipped or interrupted. */
  detail: string | null;
  /** The process running it (its runner name) while status is running. */
  runner: string | null;
  leaseExpiresAt: number | null;
}

export type AddTaskResult = { ok: true; task: ScheduledTask } | { ok: false; reason: 'duplicate' | 'limit' };

export interface ClaimFiring {
  taskId: string;
  scheduledFor: number;
  runner: string;
  now: number;
  leaseMs: number;
  /** The session the run will use; recorded with the claim. */
  sessionId: string;
}

/**
 * claimed: this process runs it; skipped: a run of the task was still going, recorded skipped;
 * taken: a run record for this firing exists already (another process decided it); inactive:
 * the task is gone or deactivated.
 */
export type ClaimResult = { outcome: 'claimed' | 'skipped'; run: TaskRun } | { outcome: 'taken' | 'inactive' };

export interface RunQuery {
  syndicate?: string;
  taskId?: string;
  limit: number;
}

export type RunOutcome = Pick<TaskRun, 'answer' | 'detail'> & { status: 'answered' | 'failed' | 'no_response' | 'interrupted'; endedAt: number };

/** The running runs a cancel stops: those of one task, or the one in one session. */
export type RunsToCancel = { taskId: string } | { sessionId: string };

/** Cancels being heard (watchCancels). */
export interface RunCancelWatch {
  /** Stops hearing them; resolves once nothing more is delivered. */
  stop(): Promise<void>;
}

export interface ScheduleStore {
  /** Adds an active task, refusing a name an active task of the syndicate has, or a 101st active task. */
  add(task: NewTask): Promise<AddTaskResult>;
  /**
   * Makes the syndicate's file-declared tasks what `declared` says: new names are added, changed
   * ones updated in place (their run records kept), names no longer declared deactivated. The file
   * wins a name: an active runtime task with a declared name is deactivated (`displaced`).
   * Each declared task's id is declaredTaskId(syndicate, name).
   */
  syncDeclared(syndicate: string, declared: readonly NewTask[]): Promise<{ tasks: ScheduledTask[]; displaced: ScheduledTask[] }>;
  get(id: string): Promise<ScheduledTask | undefined>;
  /** Active tasks of these syndicates (undefined: of every syndicate), oldest first; with `all`, deactivated ones too. */
  list(syndicates: readonly string[] | undefined, options?: { all?: boolean }): Promise<ScheduledTask[]>;
  /** Deactivates the task (its runs stay readable); false when it was not active. */
  deactivate(id: string): Promise<boolean>;
  /**
   * Decides one firing, in one transaction: writes its run record unless one exists for
   * (task, scheduledFor); the run is `running`, held by `runner` for `leaseMs`, unless a run of
   * the task is still running (then `skipped`). Moves the task's lastScheduledFor forward and
   * deactivates a one-time task.
   */
  claim(firing: ClaimFiring): Promise<ClaimResult>;
  /** Records a firing that will not run (missed while no server ran), unless it has a record already. */
  skip(taskId: string, scheduledFor: number, detail: string): Promise<ClaimResult>;
  /** Extends the runner's lease on its running runs; resolves to the ids it still holds. */
  heartbeat(runIds: readonly string[], runner: string, leaseExpiresAt: number): Promise<string[]>;
  /**
   * Runs an interrupted firing again (the shared queue's retry, scheduler/pgBoss): a run the crash
   * rule interrupted (detail INTERRUPTED_DETAIL) becomes `running` again, held by `runner` for
   * `leaseMs`, started now; undefined when the firing has no such run (it ended, or runs elsewhere).
   */
  retake(firing: ClaimFiring): Promise<TaskRun | undefined>;
  /** Records the run's end if `runner` still holds it; false otherwise (nothing written). */
  finish(runId: string, runner: string, outcome: RunOutcome): Promise<boolean>;
  /** Marks every running run whose lease expired by `now` interrupted (detail INTERRUPTED_DETAIL); resolves to them. */
  interruptExpired(now: number): Promise<TaskRun[]>;
  /**
   * Cancels the running runs `which` names, whichever process runs them: each is recorded
   * `interrupted` with `detail` (so its runner's finish writes nothing, and the queue never runs it
   * again), and the cancel is announced to watchCancels as it commits. Resolves to the runs cancelled.
   */
  cancelRuns(which: RunsToCancel, detail: string, now: number): Promise<TaskRun[]>;
  /**
   * Calls `onCancel` with the ids of the runs each later cancelRuns cancelled. PostgreSQL: a cancel
   * from any process on the database (NOTIFY), at once. SQLite: a cancel through this store object
   * only; a process on the same file sees another's cancel at its next heartbeat (its run no longer held).
   */
  watchCancels(onCancel: (runIds: readonly string[]) => void, onError: (error: Error) => void): Promise<RunCancelWatch>;
  getRun(id: string): Promise<TaskRun | undefined>;
  /** Newest scheduled time first. */
  runs(query: RunQuery): Promise<TaskRun[]>;
}

/** The columns both stores select a task as (their SQL aliases), before taskFromRow shapes it. */
export interface TaskRow {
  id: string;
  syndicate: string;
  name: string;
  cron: string | null;
  timezone: string;
  at: number | null;
  message: string;
  /** null: a new session per run. */
  sessionId: string | null;
  ownerKind: 'user' | 'agent';
  ownerId: string;
  runAs: string;
  requestedBy: string | null;
  origin: TaskOrigin;
  active: boolean | number;
  catchUp: CatchUp;
  createdAt: number;
  lastScheduledFor: number | null;
}

export function taskFromRow(row: TaskRow): ScheduledTask {
  const { sessionId, ownerKind, ownerId, active, ...rest } = row;
  return { ...rest, session: sessionId === null ? 'new' : { fixed: sessionId }, owner: { kind: ownerKind, id: ownerId }, active: Boolean(active) };
}

export function rowFromTask(task: NewTask): Omit<TaskRow, 'active' | 'lastScheduledFor'> {
  const { session, owner, ...rest } = task;
  return { ...rest, sessionId: session === 'new' ? null : session.fixed, ownerKind: owner.kind, ownerId: owner.id };
}

/** A file-declared task's id: the same name in the same syndicate is the same task across restarts. */
export const declaredTaskId = (syndicate: string, name: string): string => `file:${syndicate}:${name}`;
