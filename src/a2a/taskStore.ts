import { Task, TaskState, taskStateToJSON, type ListTasksRequest, type ListTasksResponse } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import type { TaskCursor, TaskRecord, TaskRecords } from '../store/tasks.js';
import { callerOfUser, ownerOf } from './caller.js';
import { agentMessage } from './messages.js';
import { RUNNING_STATES, SETTLED_STATES } from './taskStates.js';

// The SDK's TaskStore on our Store: every task of a served agent, scoped by the calling owner, so
// GetTask and ListTasks work after a restart and never across callers.

const INTERRUPTED = 'interrupted by restart: the server running this task stopped before it finished. Send the message again.';

function stateName(task: Task): string {
  return taskStateToJSON(task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED);
}

/** Normalised to toISOString form, which the store compares as text. */
function isoTime(value: string | undefined): string {
  const time = value === undefined ? NaN : Date.parse(value);
  return Number.isNaN(time) ? new Date(0).toISOString() : new Date(time).toISOString();
}

function encodeCursor(record: TaskRecord): string {
  return Buffer.from(JSON.stringify({ statusAt: record.statusAt, id: record.id } satisfies TaskCursor)).toString('base64url');
}

function decodeCursor(token: string): TaskCursor {
  try {
    const cursor = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Partial<TaskCursor>;
    if (typeof cursor.statusAt === 'string' && typeof cursor.id === 'string') return { statusAt: cursor.statusAt, id: cursor.id };
  } catch {
    // Reported below, as the protocol's malformed-request error.
  }
  throw new RequestMalformedError('pageToken is not a token this server issued: pass the nextPageToken of the previous ListTasks response');
}

function taskOf(record: TaskRecord): Task {
  return Task.fromJSON(record.document);
}

function reportUnsaved(error: unknown): void {
  process.stderr.write(`warning: an A2A task could not be stored: ${error instanceof Error ? error.message : String(error)}\n`);
}

/** A task saved but not yet written, with the owner it was saved for. */
interface Unwritten {
  task: Task;
  owner: string;
}

/**
 * A copy the SDK can change without changing the one held. The SDK replaces a task's status,
 * history and metadata wholesale and changes its artifact list and an artifact's fields in place,
 * but never changes a message or a part it has stored: so the copy shares those, and costs a few
 * small objects where encoding and decoding the task (as at every event before) cost all of it.
 */
function copyOf(task: Task): Task {
  return { ...task, history: [...(task.history ?? [])], artifacts: (task.artifacts ?? []).map((artifact) => ({ ...artifact })) };
}

function recordOf({ task, owner }: Unwritten, agent: string, runner: string): TaskRecord {
  return { id: task.id, agent, owner, contextId: task.contextId, state: stateName(task), statusAt: isoTime(task.status?.timestamp), document: Task.toJSON(task), runner };
}

/** The SDK's TaskStore, plus a promise for the writes it still holds (await it before closing the store). */
export type BufferedTaskStore = TaskStore & {
  written(): Promise<void>;
  /**
   * The executor is publishing a task whose id the SDK has just minted: no stored task has it, so
   * the SDK's load before its first save is answered without a lookup (a miss cost ~15 µs a task).
   * `seenAtOnce`: the caller sees the task as soon as it is saved (a streaming call), so its first
   * state is written before the save returns.
   */
  minted(taskId: string, seenAtOnce: boolean): void;
};

/** `runner`: this process's lease name; every state it saves is marked as its own (see taskLease.ts). */
export function createTaskStore(records: TaskRecords, agent: string, runner: string, onError: (error: unknown) => void = reportUnsaved): BufferedTaskStore {
  const owner = (context: ServerCallContext): string => ownerOf(callerOfUser(context.user));
  // The SDK saves a task at every event of its turn, ten times for a one-step answer, and each
  // save was a commit: the A2A bench measured them as the largest cost of a SendMessage. Saves are
  // kept per task and written on the next turn of the event loop, only the latest state of each;
  // reads see what is not written yet, until it is. A state the caller is shown as it happens (a
  // streamed task's first, every task's outcome) is written before the save returns: a task the
  // caller has seen must outlive a crash. A crash can lose the last milliseconds of the states in
  // between, and a task left running is marked failed once its runner is gone (failAbandonedTasks).
  const unwritten = new Map<string, Unwritten>();
  // Minted ids not saved yet, and whether the caller sees the task at once.
  const mintedIds = new Map<string, boolean>();
  // Minted ids never written: the store checks no owner for them.
  const neverWritten = new Set<string>();
  const write = async (held: Unwritten): Promise<void> => {
    const isNew = neverWritten.has(held.task.id);
    await records.save(recordOf(held, agent, runner), { isNew });
    neverWritten.delete(held.task.id);
  };
  let writing: Promise<void> = Promise.resolve();
  let scheduled = false;
  const writeOut = async (): Promise<void> => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    scheduled = false;
    // Requested together, so the store can write them in one commit.
    await Promise.all(
      [...unwritten.values()].map(async (held) => {
        await write(held).catch(onError);
        // A save that came in meanwhile stays, for the next write.
        if (unwritten.get(held.task.id) === held) unwritten.delete(held.task.id);
      }),
    );
  };
  const written = (): Promise<void> => {
    if (!scheduled && unwritten.size > 0) {
      scheduled = true;
      writing = writing.then(writeOut);
    }
    return writing;
  };
  return {
    written,
    minted(taskId, seenAtOnce) {
      mintedIds.set(taskId, seenAtOnce);
      neverWritten.add(taskId);
    },
    async save(task: Task, context: ServerCallContext): Promise<void> {
      const held = { task: copyOf(task), owner: owner(context) };
      unwritten.set(task.id, held);
      const seenAtOnce = mintedIds.get(task.id) === true;
      mintedIds.delete(task.id);
      if (!seenAtOnce && !SETTLED_STATES.has(task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED)) return void written();
      await write(held);
      if (unwritten.get(task.id) === held) unwritten.delete(task.id);
    },
    async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
      if (mintedIds.has(taskId)) return undefined;
      const pending = unwritten.get(taskId);
      if (pending?.owner === owner(context)) return copyOf(pending.task);
      const record = await records.get(agent, owner(context), taskId);
      return record && taskOf(record);
    },
    async list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
      await written();
      // The request handler has checked pageSize (1-100, default applied), status and the timestamp.
      const pageSize = params.pageSize!;
      const state = params.status === undefined || params.status === TaskState.TASK_STATE_UNSPECIFIED ? undefined : taskStateToJSON(params.status);
      const page = await records.list({
        agent,
        owner: owner(context),
        contextId: params.contextId || undefined,
        state,
        statusSince: params.statusTimestampAfter ? isoTime(params.statusTimestampAfter) : undefined,
        after: params.pageToken ? decodeCursor(params.pageToken) : undefined,
        // One more than asked tells whether another page follows.
        limit: pageSize + 1,
      });
      const shown = page.tasks.slice(0, pageSize);
      const tasks = shown.map((record) => {
        const task = taskOf(record);
        if (!params.includeArtifacts) task.artifacts = [];
        return task;
      });
      const last = shown[shown.length - 1];
      return { tasks, nextPageToken: page.tasks.length > pageSize && last ? encodeCursor(last) : '', pageSize, totalSize: page.total };
    },
  };
}

export interface Recovery {
  /** This process's lease name: it saves the failed states. */
  runner: string;
  now: number;
  /** At startup, this process's own name: what its previous run left running is abandoned too. */
  leftBy?: string;
}

/**
 * Marks failed every task left submitted or working by a process that is gone (its lease expired,
 * or it is this process's previous run): nothing will ever finish them, and a client polling
 * GetTask must not wait forever. A task another live process runs is left alone. Resolves to how
 * many were marked.
 */
export async function failAbandonedTasks(records: TaskRecords, { runner, now, leftBy }: Recovery): Promise<number> {
  const stale = await records.abandoned(
    [...RUNNING_STATES].map((state) => taskStateToJSON(state)),
    now,
    leftBy,
  );
  for (const record of stale) {
    const task = taskOf(record);
    const timestamp = new Date(now).toISOString();
    task.status = {
      state: TaskState.TASK_STATE_FAILED,
      timestamp,
      message: agentMessage(INTERRUPTED, task.id, task.contextId),
    };
    await records.save({ ...record, state: taskStateToJSON(TaskState.TASK_STATE_FAILED), statusAt: timestamp, document: Task.toJSON(task), runner });
  }
  return stale.length;
}
