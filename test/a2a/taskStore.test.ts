import { TaskState, type Task } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { describe, expect, it } from 'vitest';
import { CallerUser } from '../../src/a2a/caller.js';
import { agentMessage, textPart } from '../../src/a2a/messages.js';
import { createTaskStore } from '../../src/a2a/taskStore.js';
import type { TaskRecord, TaskRecords } from '../../src/store/tasks.js';

// The buffered task store on its own, over records whose writes the test holds or lets through.

const context = new ServerCallContext({ user: new CallerUser({ principal: 'local', userId: undefined }) });

function taskIn(state: TaskState, id = 'task-1'): Task {
  return {
    id,
    contextId: 'context-1',
    status: { state, message: undefined, timestamp: new Date().toISOString() },
    artifacts: [{ artifactId: 'answer', name: 'answer', description: '', parts: [textPart('first')], metadata: undefined, extensions: [] }],
    history: [agentMessage('hello', id, 'context-1')],
    metadata: undefined,
  };
}

/** Records in memory; while `held`, a save waits until the test calls `release`. */
function heldRecords() {
  const saved = new Map<string, TaskRecord>();
  const saves: TaskRecord[] = [];
  let release: () => void = () => undefined;
  let held: Promise<void> | undefined;
  const records: TaskRecords = {
    async save(record) {
      saves.push(record);
      if (held) await held;
      saved.set(record.id, record);
    },
    async get(_agent, _owner, id) {
      return saved.get(id);
    },
    async list() {
      return { tasks: [...saved.values()], total: saved.size };
    },
    async abandoned() {
      return [];
    },
    async renewLease() {},
    async endLease() {},
    async requestCancel() {},
    async watchCancels() {
      return { stop: async () => undefined };
    },
    async savePushConfig() {},
    async pushConfigs() {
      return [];
    },
    async deletePushConfig() {},
  };
  const hold = (): void => {
    held = new Promise<void>((resolve) => (release = resolve));
  };
  return { records, saves, hold, release: () => release() };
}

describe('the A2A task store', () => {
  it('stores a streamed task whose id the SDK minted before its first save returns, without an owner check, and never looks it up', async () => {
    const { records, saves } = heldRecords();
    const options: Array<{ isNew?: boolean } | undefined> = [];
    const store = createTaskStore({ ...records, save: (record, saveOptions) => (options.push(saveOptions), records.save(record)) }, 'echo', 'this-process');
    store.minted('task-1', true);

    expect(await store.load('task-1', context)).toBeUndefined();
    await store.save(taskIn(TaskState.TASK_STATE_WORKING), context);

    expect(saves.map((record) => record.state)).toEqual(['TASK_STATE_WORKING']);
    expect(options).toEqual([{ isNew: true }]);
  });

  it('holds back the first state of a task the caller only sees finished, and stores its outcome before that save returns', async () => {
    const { records, saves } = heldRecords();
    const options: Array<{ isNew?: boolean } | undefined> = [];
    const store = createTaskStore({ ...records, save: (record, saveOptions) => (options.push(saveOptions), records.save(record)) }, 'echo', 'this-process');
    store.minted('task-1', false);

    await store.save(taskIn(TaskState.TASK_STATE_WORKING), context);
    expect(saves).toEqual([]);
    await store.save(taskIn(TaskState.TASK_STATE_COMPLETED), context);

    expect(saves.map((record) => record.state)).toEqual(['TASK_STATE_COMPLETED']);
    expect(options).toEqual([{ isNew: true }]);
    await store.written();
    expect(saves.map((record) => record.state)).toEqual(['TASK_STATE_COMPLETED']);
  });

  it('reads a saved task back before it is written', async () => {
    const { records } = heldRecords();
    const store = createTaskStore(records, 'echo', 'this-process');
    await store.save(taskIn(TaskState.TASK_STATE_WORKING), context);
    expect((await store.load('task-1', context))?.status?.state).toBe(TaskState.TASK_STATE_WORKING);
  });

  it('keeps a task readable while its write is still in progress', async () => {
    const { records, saves, hold, release } = heldRecords();
    hold();
    const store = createTaskStore(records, 'echo', 'this-process');
    await store.save(taskIn(TaskState.TASK_STATE_WORKING), context);
    while (saves.length === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    expect((await store.load('task-1', context))?.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    release();
    await store.written();
  });

  it('writes only the latest of the states saved in one turn of the event loop', async () => {
    const { records, saves } = heldRecords();
    const store = createTaskStore(records, 'echo', 'this-process');
    await store.save(taskIn(TaskState.TASK_STATE_SUBMITTED), context);
    await store.save(taskIn(TaskState.TASK_STATE_WORKING), context);
    await store.save(taskIn(TaskState.TASK_STATE_COMPLETED), context);
    await store.written();
    expect(saves.map((record) => record.state)).toEqual(['TASK_STATE_COMPLETED']);
  });

  it('writes a state saved while an earlier one was being written', async () => {
    const { records, saves, hold, release } = heldRecords();
    hold();
    const store = createTaskStore(records, 'echo', 'this-process');
    await store.save(taskIn(TaskState.TASK_STATE_WORKING), context);
    while (saves.length === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const outcome = store.save(taskIn(TaskState.TASK_STATE_COMPLETED), context);
    release();
    await outcome;
    await store.written();
    expect((await records.get('echo', 'local', 'task-1'))?.state).toBe('TASK_STATE_COMPLETED');
  });

  it('does not let changes to a loaded task reach the task it holds', async () => {
    const { records } = heldRecords();
    const store = createTaskStore(records, 'echo', 'this-process');
    await store.save(taskIn(TaskState.TASK_STATE_WORKING), context);
    const loaded = (await store.load('task-1', context))!;
    loaded.artifacts[0]!.parts = [...loaded.artifacts[0]!.parts, textPart('second')];
    loaded.artifacts.push({ ...loaded.artifacts[0]!, artifactId: 'other' });
    loaded.history = [];
    const again = (await store.load('task-1', context))!;
    expect(again.artifacts.map((artifact) => artifact.parts.length)).toEqual([1]);
    expect(again.history).toHaveLength(1);
  });

  it('does not let changes to a task after saving it reach the task it holds', async () => {
    const { records } = heldRecords();
    const store = createTaskStore(records, 'echo', 'this-process');
    const task = taskIn(TaskState.TASK_STATE_COMPLETED);
    await store.save(task, context);
    task.history = [];
    task.artifacts[0]!.name = 'renamed';
    await store.written();
    const document = (await records.get('echo', 'local', 'task-1'))!.document as { history: unknown[]; artifacts: Array<{ name: string }> };
    expect(document.history).toHaveLength(1);
    expect(document.artifacts[0]!.name).toBe('answer');
  });
});
