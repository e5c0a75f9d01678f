import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defineAgent } from '../../src/config/define.js';
import type { CompiledSyndicate } from '../../src/runtime/compileSyndicate.js';
import { createTaskScheduler, type RunTaskTurn, type TaskScheduler, type TaskTurnEnd } from '../../src/scheduler/tasks/index.js';
import type { NewTask } from '../../src/store/schedules.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import type { Store } from '../../src/store/store.js';
import { collect, compile, turnEnd } from '../runtime/fixtures.js';
import { scratchDir } from '../support/scratchDir.js';

// The scheduler loop on a real SQLite store and the scripted model, driven by a fake clock: each
// test moves `clock` and calls tick(), so nothing waits on wall time. Two schedulers on one file
// stand for two processes.

const START = Date.parse('2026-12-02T08:00:00Z');
const LEASE = 30_000;

describe('the task scheduler', () => {
  let dir: string;
  let store: Store;
  let syndicate: CompiledSyndicate;
  let clock: number;
  const schedulers: TaskScheduler[] = [];
  const warnings: string[] = [];

  beforeEach(async () => {
    dir = scratchDir('tasks');
    store = await openSqliteStore(join(dir, 'tasks.db'));
    syndicate = compile(defineAgent('Boss', { model: 'scripted', file: 'test.yaml'}), {}, { name: 'team' });
    clock = START;
    warnings.length = 0;
  });
  afterEach(async () => {
    await Promise.all(schedulers.splice(0).map((scheduler) => scheduler.close()));
    await store.close();
  });

  /** The face's turn, here the runtime's own loop on the scripted model. */
  const scriptedTurn =
    (on: Store = store): RunTaskTurn =>
    async (request) => turnEnd(await collect(syndicate, { input: request.message, sessionId: request.sessionId, store: on, signal: request.signal }));

  function scheduler(runTurn: RunTaskTurn = scriptedTurn(), on: Store = store, runner = 'runner-a'): TaskScheduler {
    const created = createTaskScheduler({ store: on.schedules, runner, syndicates: () => ['team'], runTurn, warn: (message) => warnings.push(message), now: () => clock, leaseMs: LEASE });
    schedulers.push(created);
    return created;
  }

  async function addTask(overrides: Partial<NewTask> = {}): Promise<string> {
    const task: NewTask = {
      id: randomUUID(),
      syndicate: 'team',
      name: `task-${randomUUID().slice(0, 8)}`,
      cron: '*/10 * * * * *',
      timezone: 'UTC',
      at: null,
      message: 'Brief me on what changed overnight.',
      session: 'new',
      owner: { kind: 'user', id: 'ana' },
      runAs: 'ana',
      requestedBy: null,
      origin: 'runtime',
      catchUp: 'none',
      createdAt: START,
      ...overrides,
    };
    const added = await store.schedules.add(task);
    if (!added.ok) throw new Error(`could not add the task: ${added.reason}`);
    return task.id;
  }

  /** A turn that waits until released, so a run can be kept going. */
  function heldTurn(): { runTurn: RunTaskTurn; release(end?: TaskTurnEnd): void; started: Promise<void> } {
    let release!: (end: TaskTurnEnd) => void;
    let markStarted!: () => void;
    const ended = new Promise<TaskTurnEnd>((resolve) => (release = resolve));
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    return {
      runTurn: async () => {
        markStarted();
        return ended;
      },
      release: (end = { status: 'completed', output: 'done' }) => release(end),
      started,
    };
  }

  it('runs a due firing once, as a turn in a session of its own, and records its answer', async () => {
    const taskId = await addTask();
    const loop = scheduler();

    clock = START + 10_000;
    await loop.tick();
    await loop.tick();
    await loop.idle();

    const runs = await store.schedules.runs({ taskId, limit: 10 });
    expect(runs).toMatchObject([{ scheduledFor: START + 10_000, status: 'answered', answer: expect.stringContaining('Brief me on what changed overnight.'), startedAt: START + 10_000, endedAt: START + 10_000 }]);
    expect(runs[0]!.sessionId).toBe(`task:ana:${taskId}:2026-12-02T08:00:10.000Z`);
    const events = await store.readEvents(runs[0]!.sessionId!);
    expect(events.map(({ event }) => event.type)).toContain('turn-end');
  });

  it('does not fire before the first firing after the task was created', async () => {
    const taskId = await addTask();
    const loop = scheduler();

    clock = START + 9_999;
    await loop.tick();

    expect(await store.schedules.runs({ taskId, limit: 10 })).toEqual([]);
  });

  it("fires a cron pattern at its time zone's wall-clock time, not UTC's", async () => {
    // 08:00 in New York on 2 December (EST, UTC-5) is 13:00 UTC; 08:00 UTC is already past at START.
    const taskId = await addTask({ cron: '0 8 * * *', timezone: 'America/New_York' });
    const loop = scheduler();

    clock = Date.parse('2026-12-02T12:59:59Z');
    await loop.tick();
    expect(await store.schedules.runs({ taskId, limit: 10 })).toEqual([]);
    clock = Date.parse('2026-12-02T13:00:00Z');
    await loop.tick();
    await loop.idle();

    expect((await store.schedules.runs({ taskId, limit: 10 })).map((run) => [new Date(run.scheduledFor).toISOString(), run.status])).toEqual([['2026-12-02T13:00:00.000Z', 'answered']]);
  });

  it('runs each firing once when two processes tick at the same moment', async () => {
    const taskId = await addTask();
    const other = await openSqliteStore(join(dir, 'tasks.db'));
    try {
      const a = scheduler(scriptedTurn(store), store, 'runner-a');
      const b = scheduler(scriptedTurn(other), other, 'runner-b');
      for (let step = 1; step <= 5; step++) {
        clock = START + step * 10_000;
        await Promise.all([a.tick(), b.tick()]);
        await Promise.all([a.idle(), b.idle()]);
      }

      const runs = await store.schedules.runs({ taskId, limit: 100 });
      expect(runs.map((run) => run.scheduledFor).sort()).toEqual([1, 2, 3, 4, 5].map((step) => START + step * 10_000));
      expect(runs.every((run) => run.status === 'answered')).toBe(true);
    } finally {
      await Promise.all(schedulers.splice(0).map((scheduler) => scheduler.close()));
      await other.close();
    }
  });

  it('records a firing skipped while the previous run of the task is still going', async () => {
    const taskId = await addTask();
    const held = heldTurn();
    const loop = scheduler(held.runTurn);

    clock = START + 10_000;
    await loop.tick();
    await held.started;
    clock = START + 20_000;
    await loop.tick();
    held.release();
    await loop.idle();

    expect((await store.schedules.runs({ taskId, limit: 10 })).map((run) => [run.scheduledFor - START, run.status, run.detail])).toEqual([
      [20_000, 'skipped', 'the previous run was still going'],
      [10_000, 'answered', null],
    ]);
  });

  it('records firings missed while no server ran as one skipped run, with catch_up: none', async () => {
    const taskId = await addTask({ cron: '0 * * * *' });
    const loop = scheduler();

    clock = START + 3 * 3_600_000 + 10_000;
    await loop.tick();
    await loop.idle();

    const runs = await store.schedules.runs({ taskId, limit: 10 });
    expect(runs.map((run) => [new Date(run.scheduledFor).toISOString(), run.status])).toEqual([
      ['2026-12-02T11:00:00.000Z', 'answered'],
      ['2026-12-02T10:00:00.000Z', 'skipped'],
    ]);
    expect(runs[1]!.detail).toBe('the firings from 2026-12-02T09:00:00.000Z to 2026-12-02T10:00:00.000Z were missed while no server ran (catch_up: none)');
  });

  it('records every firing within the grace when a tick sees several at once: the first runs, the rest overlap it', async () => {
    const taskId = await addTask();
    const loop = scheduler();

    clock = START + 30_000;
    await loop.tick();
    await loop.idle();

    expect((await store.schedules.runs({ taskId, limit: 10 })).map((run) => [run.scheduledFor - START, run.status])).toEqual([
      [30_000, 'skipped'],
      [20_000, 'skipped'],
      [10_000, 'answered'],
    ]);
  });

  it('runs the latest missed firing with catch_up: last, and records the earlier ones skipped', async () => {
    const taskId = await addTask({ cron: '0 * * * *', catchUp: 'last' });
    const loop = scheduler();

    clock = START + 3 * 3_600_000 + 600_000;
    await loop.tick();
    await loop.idle();

    const runs = await store.schedules.runs({ taskId, limit: 10 });
    expect(runs.map((run) => [new Date(run.scheduledFor).toISOString(), run.status])).toEqual([
      ['2026-12-02T11:00:00.000Z', 'answered'],
      ['2026-12-02T09:00:00.000Z', 'skipped'],
    ]);
    expect(runs[1]!.detail).toContain('catch_up: last runs only the latest');
  });

  it('marks the run of a process that died interrupted once its lease expires, and goes on firing', async () => {
    const taskId = await addTask();
    const dead = scheduler(heldTurn().runTurn, store, 'runner-dead');
    clock = START + 10_000;
    await dead.tick();
    schedulers.splice(schedulers.indexOf(dead), 1);
    const survivor = scheduler(scriptedTurn(), store, 'runner-b');

    clock = START + 10_000 + LEASE;
    await survivor.tick();
    await survivor.idle();

    const runs = await store.schedules.runs({ taskId, limit: 10 });
    expect(runs.find((run) => run.scheduledFor === START + 10_000)).toMatchObject({ status: 'interrupted', detail: expect.stringContaining('lease expired') });
    expect(runs.find((run) => run.scheduledFor === START + 20_000)).toMatchObject({ status: 'answered' });
  });

  /** A turn that goes until its signal aborts, then ends cancelled. */
  function abortableTurn(): { runTurn: RunTaskTurn; started: Promise<void> } {
    let markStarted!: () => void;
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    return {
      runTurn: (request) => {
        markStarted();
        return new Promise((resolve) => request.signal.addEventListener('abort', () => resolve({ status: 'cancelled', output: '' }), { once: true }));
      },
      started,
    };
  }

  it('stops its run at once when a cancel through its store records it interrupted, keeping the cancel as the record', async () => {
    const taskId = await addTask({ cron: null, at: START + 5_000 });
    const turn = abortableTurn();
    const loop = scheduler(turn.runTurn);
    await loop.start();
    clock = START + 5_000;
    await loop.tick();
    await turn.started;

    await store.schedules.cancelRuns({ taskId }, 'cancelled: its task was removed', clock);
    await loop.idle();

    expect(await store.schedules.runs({ taskId, limit: 10 })).toMatchObject([{ status: 'interrupted', detail: 'cancelled: its task was removed' }]);
    expect(warnings).toEqual([]);
  });

  it('stops its run at its next heartbeat when another process cancelled it, without calling it a lost lease', async () => {
    const taskId = await addTask({ cron: null, at: START + 5_000 });
    const turn = abortableTurn();
    const loop = scheduler(turn.runTurn);
    clock = START + 5_000;
    await loop.tick();
    await turn.started;
    const otherProcess = await openSqliteStore(join(dir, 'tasks.db'));
    try {
      await otherProcess.schedules.cancelRuns({ taskId }, 'cancelled: its task was removed', clock);
    } finally {
      await otherProcess.close();
    }

    clock = START + 5_000 + LEASE / 3;
    await loop.tick();
    await loop.idle();

    expect(await store.schedules.runs({ taskId, limit: 10 })).toMatchObject([{ status: 'interrupted', detail: 'cancelled: its task was removed' }]);
    expect(warnings).toEqual([]);
  });

  it('keeps a run it holds alive past its first lease by renewing it', async () => {
    const onceId = await addTask({ cron: null, at: START + 5_000 });
    const held = heldTurn();
    const loop = scheduler(held.runTurn);

    clock = START + 5_000;
    await loop.tick();
    await held.started;
    for (let step = 1; step <= 6; step++) {
      clock = START + 5_000 + step * (LEASE / 3);
      await loop.tick();
    }
    held.release();
    await loop.idle();

    expect(await store.schedules.runs({ taskId: onceId, limit: 10 })).toMatchObject([{ status: 'answered' }]);
    expect(warnings).toEqual([]);
  });

  it('runs a one-time task once, then deactivates it', async () => {
    const taskId = await addTask({ cron: null, at: START + 5_000 });
    const loop = scheduler();

    clock = START + 5_000;
    await loop.tick();
    clock = START + 50_000;
    await loop.tick();
    await loop.idle();

    expect((await store.schedules.runs({ taskId, limit: 10 })).map((run) => run.status)).toEqual(['answered']);
    expect((await store.schedules.get(taskId))?.active).toBe(false);
  });

  it('sends every run of a task with a fixed session to that session', async () => {
    const taskId = await addTask({ session: { fixed: 'api:ana:brief' } });
    const loop = scheduler();

    for (const step of [1, 2]) {
      clock = START + step * 10_000;
      await loop.tick();
      await loop.idle();
    }

    expect((await store.schedules.runs({ taskId, limit: 10 })).map((run) => run.sessionId)).toEqual(['api:ana:brief', 'api:ana:brief']);
    expect((await store.readEvents('api:ana:brief')).filter(({ event }) => event.type === 'turn-start')).toHaveLength(2);
  });

  it('records a failed turn failed, a turn without an answer no_response, and a cancelled one interrupted', async () => {
    const ends: TaskTurnEnd[] = [
      { status: 'failed', output: '', error: 'the model is unreachable' },
      { status: 'completed', output: '  ' },
      { status: 'cancelled', output: '' },
    ];
    const taskId = await addTask();
    const loop = scheduler(async () => ends.shift()!);

    for (const step of [1, 2, 3]) {
      clock = START + step * 10_000;
      await loop.tick();
      await loop.idle();
    }

    expect((await store.schedules.runs({ taskId, limit: 10 })).map((run) => [run.status, run.detail])).toEqual([
      ['interrupted', 'the turn was cancelled (the server stopped, or someone cancelled the session)'],
      ['no_response', 'the turn ended without an answer'],
      ['failed', 'the model is unreachable'],
    ]);
  });
});
