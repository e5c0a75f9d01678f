import { describe, expect, it } from 'vitest';
import type { TurnEvent } from '../../src/core/events.js';
import { runTurn } from '../../src/runtime/runTurn.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import type { Store } from '../../src/store/store.js';
import { agent, collect, compile, ofType, recordCalls, tempDbPath, turnEnd, type ModelCall } from './fixtures.js';

// How a turn writes its session (runtime/turnWrites.ts): it waits for the store only at its first
// and last batch; the batches of its step boundaries go out without the turn waiting, in order.

const panel = agent('Moderator', { subagents: [agent('Advocate'), agent('Skeptic')] });

/** The store with its appendEvents replaced; `calls` counts the appends it was asked for. */
function withAppend(store: Store, append: (call: number, real: () => Promise<number>) => Promise<number>): Store & { calls: () => number } {
  let calls = 0;
  const real = store.appendEvents.bind(store);
  return Object.assign(Object.create(store) as Store, {
    appendEvents: (...args: Parameters<Store['appendEvents']>) => append(++calls, () => real(...args)),
    calls: () => calls,
  });
}

function persisted(events: readonly TurnEvent[]): TurnEvent[] {
  return events.filter((event) => event.type !== 'text-delta' && event.type !== 'thinking-delta');
}

describe('the batches of a turn', () => {
  it('fails the turn when a batch it did not wait for fails, and appends nothing after it', async () => {
    const store = openSqliteStore(tempDbPath());
    const failing = withAppend(store, (call, real) => (call === 2 ? Promise.reject(new Error('disk full')) : real()));

    const events = await collect(compile(panel), { input: 'Ship on Fridays?', sessionId: 's1', store: failing });

    expect(turnEnd(events)).toMatchObject({ status: 'failed' });
    expect(ofType(events, 'error')).toContainEqual(expect.objectContaining({ code: 'store_error', message: expect.stringContaining('disk full') }));
    // The turn-start batch, then the one that failed: nothing later was sent, the turn's last batch neither.
    expect(failing.calls()).toBe(2);
    expect((await store.readEvents('s1')).map(({ event }) => event.type)).toEqual(['turn-start']);
    await store.close();
  });

  it('goes on to the next step while a batch is being stored, and ends only once every batch is', async () => {
    const store = openSqliteStore(tempDbPath());
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = withAppend(store, (call, real) => (call === 2 ? held.then(real) : real()));
    const calls: ModelCall[] = [];
    const seen: TurnEvent[] = [];

    const turn = (async () => {
      for await (const event of runTurn(compile(panel, { resolveModel: recordCalls(calls) }), { input: 'Ship on Fridays?', sessionId: 's1', store: slow })) seen.push(event);
    })();
    // The Advocate's step is held in the store; the Moderator still asks the Skeptic and answers.
    await expect.poll(() => calls.map((call) => call.agent)).toEqual(['Moderator', 'Advocate', 'Moderator', 'Skeptic', 'Moderator']);
    expect(ofType(seen, 'turn-end')).toHaveLength(0);
    release();
    await turn;

    expect(turnEnd(seen)).toMatchObject({ status: 'completed' });
    expect((await store.readEvents('s1')).map(({ event }) => event)).toEqual(persisted(seen));
    await store.close();
  });

  it('stores the batches cut while one is in flight together, in order, with gapless seqs told once each', async () => {
    const store = openSqliteStore(tempDbPath());
    const slow = withAppend(store, (_call, real) => new Promise((resolve) => setTimeout(resolve, 5)).then(real));
    const root = agent('Moderator', {
      tools: ['calculator'],
      subagents: [agent('Advocate'), agent('Skeptic')],
      script: [
        {
          tool_calls: [
            { tool: 'Advocate', args: { request: 'argue for it' } },
            { tool: 'calculator', args: { expression: '6 * 7' } },
            { tool: 'Skeptic', args: { request: 'argue against it' } },
          ],
        },
        { tool_calls: [{ tool: 'calculator', args: { expression: '1 + 1' } }] },
        { reply: 'Decided.' },
      ],
    });
    const told: Array<{ seq: number; event: TurnEvent }> = [];
    const committed = (batch: readonly TurnEvent[], lastSeq: number): void => {
      batch.forEach((event, i) => told.push({ seq: lastSeq - batch.length + 1 + i, event }));
    };

    const events = await collect(compile(root), { input: 'Ship on Fridays?', sessionId: 's1', store: slow, committed });

    expect(turnEnd(events)).toMatchObject({ status: 'completed' });
    const stored = await store.readEvents('s1');
    expect(stored.map(({ event }) => event)).toEqual(persisted(events));
    expect(stored.map(({ seq }) => seq)).toEqual(stored.map((_, i) => i + 1));
    expect(told).toEqual(stored.map(({ seq, event }) => ({ seq, event })));
    // Four step boundaries and the turn's first and last batch, in fewer appends.
    expect(slow.calls()).toBeLessThan(6);
    await store.close();
  });
});
