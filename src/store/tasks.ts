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

export interface TaskRecords {
  /**
   * Creates or replaces the task; resolves once the state would survive the process being killed.
   * A task id taken by another agent or owner is refused. `isNew`: the caller minted the id (a
   * random UUID), so no stored task holds it and nothing is read to check.
   */
  save(task: TaskRecord, options?: { isNew?: boolean }): Promise<void>;
  get(agent: string, owner: string, id: string): Promise<TaskRecord | undefined>;
  list(query: TaskQuery): Promise<TaskPage>;
  /** Every task, of any agent and owner, in one of these states: for recovery at startup. */
  inStates(states: readonly string[]): Promise<TaskRecord[]>;
}
