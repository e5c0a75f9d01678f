// Persistent A2A tasks. The store keeps each task as an opaque JSON document plus the columns that
// queries filter and sort on; what a task means is the A2A face's business. Async, like the rest
// of the Store, so PostgreSQL can implement it unchanged.

export interface TaskRecord {
  id: string;
  /** The served agent the task belongs to (its agent id). */
  agent: string;
  /** Who may see the task: the authenticated caller's scope. */
  owner: string;
  contextId: string;
  /** The task's current state, as the A2A face names it. */
  state: string;
  /** ISO 8601 UTC time of the current status (toISOString format, so it sorts as text). */
  statusAt: string;
  /** The whole task, as a JSON value. */
  document: unknown;
  /**
   * The process that saved this state (its lease holder name, see renewLease): a task it left
   * submitted or working is still running while that lease lasts. '' for states saved before leases.
   */
  runner: string;
}

/** A webhook a caller registered for a task's updates (an A2A push notification config). */
export interface PushConfigRecord {
  agent: string;
  owner: string;
  taskId: string;
  /** Unique within the task. */
  id: string;
  /** The A2A protocol version the config was registered over ('1.0', '0.3'): its deliveries take that body shape. */
  wireVersion: string;
  /** The whole config, as a JSON value. */
  document: unknown;
}

/** Where a page starts: after this task in list order. */
export interface TaskCursor {
  statusAt: string;
  id: string;
}

export interface TaskQuery {
  agent: string;
  owner: string;
  contextId?: string;
  state?: string;
  /** Only tasks whose status was set at or after this ISO 8601 UTC time (the spec says "greater than or equal"). */
  statusSince?: string;
  after?: TaskCursor;
  limit: number;
}

export interface TaskPage {
  /** Newest status first; ties by id, descending. */
  tasks: TaskRecord[];
  /** How many tasks match the filters, ignoring the cursor and the limit. */
  total: number;
}

/** A cancel that reached a process other than the task's runner, for the runner to act on. */
export interface CancelRequest {
  agent: string;
  taskId: string;
}

/** Cancel requests being heard (watchCancels). */
export interface CancelWatch {
  /** Stops hearing them; resolves once nothing more is delivered. */
  stop(): Promise<void>;
}

export interface CancelWatchOptions {
  /** Told when requests could not be heard for a while (the connection dropped; it is reopened). */
  onError: (error: Error) => void;
}

export interface TaskRecords {
  /**
   * Creates or replaces the task; resolves once the state would survive the process being killed.
   * A task id taken by another agent or owner is refused. `isNew`: the caller minted the id (a
   * random UUID), so no stored task holds it and nothing is read to check.
   */
  save(task: TaskRecord, options?: { isNew?: boolean }): Promise<void>;
  get(agent: string, owner: string, id: string): Promise<TaskRecord | undefined>;
  list(query: TaskQuery): Promise<TaskPage>;
  /**
   * Tasks of any agent and owner, in one of `states`, that no live process runs: their runner holds
   * no lease expiring after `now` (ms since the epoch), or their runner is `leftBy` (this process's
   * own name, left behind by its previous run). For recovery, at startup and periodically.
   */
  abandoned(states: readonly string[], now: number, leftBy?: string): Promise<TaskRecord[]>;
  /** Creates or extends `runner`'s lease until `expiresAt` (ms since the epoch): the heartbeat of a process running tasks. */
  renewLease(runner: string, expiresAt: number): Promise<void>;
  /** Ends `runner`'s lease (a clean shutdown): what it left running is abandoned at once. */
  endLease(runner: string): Promise<void>;
  /**
   * Asks every process on the database, through it, to stop the task's turn if it runs it: a
   * cancel that reached a process other than the task's runner. Resolves once the request is in
   * the database, not once it is acted on: the runner saves the canceled state when its turn stops.
   */
  requestCancel(request: CancelRequest): Promise<void>;
  /**
   * Calls `onCancel` with each cancel requested from now on by any process on the database
   * (this one included), until stopped. Resolves once requests are heard.
   */
  watchCancels(onCancel: (request: CancelRequest) => void, options: CancelWatchOptions): Promise<CancelWatch>;
  /** Creates, or replaces, the task's push config with this id; resolves once it is durable. */
  savePushConfig(config: PushConfigRecord): Promise<void>;
  /** The task's push configs, in the order they were first saved; none of another agent or owner. */
  pushConfigs(agent: string, owner: string, taskId: string): Promise<PushConfigRecord[]>;
  /** Deletes the task's push config with this id, if there is one. */
  deletePushConfig(agent: string, owner: string, taskId: string, id: string): Promise<void>;
}
