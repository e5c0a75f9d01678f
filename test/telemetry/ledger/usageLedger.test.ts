import { describe, expect, it } from 'vitest';
import type { TurnEvent } from '../../../src/core/events.js';
import { runTurn } from '../../../src/runtime/runTurn.js';
import type { UsageRow } from '../../../src/store/store.js';
import { createUsageLedger, type UsageLedgerOptions } from '../../../src/telemetry/ledger/usageLedger.js';
import { agent, compile, ofType, turnEnd } from '../../runtime/fixtures.js';

const council = agent('Moderator', { subagents: [agent('Advocate'), agent('Skeptic')] });

interface FakeLedgerStore {
  store: UsageLedgerOptions['store'];
  batches: UsageRow[][];
}

function recordingStore(): FakeLedgerStore {
  const batches: UsageRow[][] = [];
  return { batches, store: { recordUsage: async (rows) => void batches.push([...rows]) } };
}

function failingStore(fail: () => never): UsageLedgerOptions['store'] {
  return { recordUsage: () => fail() };
}

function ledgerOver(store: UsageLedgerOptions['store'], errors: unknown[] = [], sessionId: string | null = 'session-1') {
  return createUsageLedger({ store, syndicate: 'Test', sessionId, onError: (error) => errors.push(error) });
}

describe('usage ledger', () => {
  it('writes nothing while the turn runs, not even on turn-end, and writes every call once the turn is over', async () => {
    const { store, batches } = recordingStore();
    const ledger = ledgerOver(store);
    const events: TurnEvent[] = [];
    const writesSeen: number[] = [];
    for await (const event of runTurn(compile(council), { input: 'Adopt a four-day week?', observers: [ledger.observe] })) {
      events.push(event);
      writesSeen.push(batches.length);
    }
    await ledger.settled();

    expect(ofType(events, 'usage').length).toBeGreaterThan(0);
    expect(writesSeen.every((count) => count === 0)).toBe(true);
    expect(batches).toHaveLength(1);
    expect(batches[0]).toHaveLength(ofType(events, 'usage').length);
  });

  it('copies each usage event into a row with the syndicate, session and the turn status', async () => {
    const { store, batches } = recordingStore();
    const ledger = ledgerOver(store);
    const events: TurnEvent[] = [];
    for await (const event of runTurn(compile(council), { input: 'Adopt a four-day week?', observers: [ledger.observe] })) events.push(event);
    await ledger.settled();

    const expected = ofType(events, 'usage').map(
      (e): UsageRow => ({
        at: e.at,
        syndicate: 'Test',
        sessionId: 'session-1',
        turnId: e.turnId,
        agent: e.agent,
        provider: e.provider,
        model: e.model,
        inputTokens: e.inputTokens,
        outputTokens: e.outputTokens,
        reasoningTokens: e.reasoningTokens,
        cachedInputTokens: e.cachedInputTokens,
        latencyMs: e.latencyMs,
        outcome: e.outcome,
        turnStatus: 'completed',
      }),
    );
    expect(batches[0]).toStrictEqual(expected);
  });

  it("gives the subagents' calls the id of the turn that delegated to them", async () => {
    const { store, batches } = recordingStore();
    const ledger = ledgerOver(store);
    const events: TurnEvent[] = [];
    for await (const event of runTurn(compile(council), { input: 'Adopt a four-day week?', observers: [ledger.observe] })) events.push(event);
    await ledger.settled();

    const rows = batches[0]!;
    expect(new Set(rows.map((row) => row.agent))).toStrictEqual(new Set(['Moderator', 'Advocate', 'Skeptic']));
    expect(rows.every((row) => row.turnId === turnEnd(events).turnId)).toBe(true);
  });

  it('records the failed call and the failed status of a turn whose model cannot be called', async () => {
    const { store, batches } = recordingStore();
    const ledger = ledgerOver(store);
    const syndicate = compile(agent('Chair', { model: 'claude-sonnet-4-5' }), { env: {} });
    for await (const event of runTurn(syndicate, { input: 'hello', observers: [ledger.observe] })) void event;
    await ledger.settled();

    expect(batches[0]).toMatchObject([{ agent: 'Chair', provider: 'anthropic.messages', model: 'claude-sonnet-4-5', outcome: 'error', turnStatus: 'failed' }]);
  });

  it('records the calls made before a cancel with the cancelled status of their turn', async () => {
    const { store, batches } = recordingStore();
    const ledger = ledgerOver(store);
    const controller = new AbortController();
    const cancelAfterAdvocate = (event: TurnEvent): void => void (event.type === 'usage' && event.agent === 'Advocate' && controller.abort());
    const options = { input: 'hi', signal: controller.signal, observers: [ledger.observe, cancelAfterAdvocate] };
    for await (const event of runTurn(compile(council), options)) void event;
    await ledger.settled();

    expect(batches[0]!.map((row) => [row.agent, row.turnStatus])).toStrictEqual([
      ['Moderator', 'cancelled'],
      ['Advocate', 'cancelled'],
    ]);
  });

  it('keeps a null session id for syndicates that store no sessions', async () => {
    const { store, batches } = recordingStore();
    const ledger = ledgerOver(store, [], null);
    for await (const event of runTurn(compile(agent('Solo')), { input: 'hi', observers: [ledger.observe] })) void event;
    await ledger.settled();

    expect(batches[0]!.map((row) => row.sessionId)).toStrictEqual([null]);
  });

  it('writes the rows of several turns in one batch, in the order the turns ended', async () => {
    const { store, batches } = recordingStore();
    const ledger = ledgerOver(store);
    const syndicate = compile(agent('Solo'));
    const ends: string[] = [];
    for (const input of ['first', 'second']) {
      for await (const event of runTurn(syndicate, { input, observers: [ledger.observe] })) if (event.type === 'turn-end') ends.push(event.turnId);
    }
    await ledger.settled();

    expect(batches).toHaveLength(1);
    expect([...new Set(batches[0]!.map((row) => row.turnId))]).toStrictEqual(ends);
  });

  it('completes the turn when the ledger write rejects, and reports the failure once for several turns', async () => {
    const errors: unknown[] = [];
    const ledger = ledgerOver({ recordUsage: () => Promise.reject(new Error('disk full')) }, errors);
    const syndicate = compile(council);
    const statuses: string[] = [];
    for (const input of ['first', 'second']) {
      const events: TurnEvent[] = [];
      for await (const event of runTurn(syndicate, { input, observers: [ledger.observe] })) events.push(event);
      statuses.push(turnEnd(events).status);
      expect(ofType(events, 'warning')).toStrictEqual([]);
    }
    await ledger.settled();

    expect(statuses).toStrictEqual(['completed', 'completed']);
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('disk full');
  });

  it('reports a store that throws instead of rejecting the same way, without throwing into the turn', async () => {
    const errors: unknown[] = [];
    const ledger = ledgerOver(
      failingStore(() => {
        throw new Error('database is closed');
      }),
      errors,
    );
    const events: TurnEvent[] = [];
    for await (const event of runTurn(compile(council), { input: 'hi', observers: [ledger.observe] })) events.push(event);
    await ledger.settled();

    expect(turnEnd(events).status).toBe('completed');
    expect((errors[0] as Error).message).toBe('database is closed');
  });
});
