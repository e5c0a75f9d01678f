import { describe, expect, it } from 'vitest';
import type { UsageRow } from '../../../src/store/store.js';
import type { PriceTable } from '../../../src/telemetry/ledger/prices.js';
import { summarizeUsage } from '../../../src/telemetry/ledger/summarizeUsage.js';

const prices: PriceTable = {
  asOf: '2025-11-24',
  providers: { anthropic: { 'claude-sonnet-4-5': { input: 3, output: 15 } }, scripted: { '*': 'local' } },
};

const DAY_ONE = new Date(2026, 10, 1, 10, 0).getTime();
const DAY_TWO = new Date(2026, 10, 2, 10, 0).getTime();

function row(overrides: Partial<UsageRow>): UsageRow {
  return {
    at: DAY_ONE,
    syndicate: 'Boardroom',
    sessionId: 's1',
    turnId: 't1',
    agent: 'Chair',
    provider: 'scripted',
    model: 'scripted',
    inputTokens: 100,
    outputTokens: 10,
    reasoningTokens: 4,
    cachedInputTokens: 20,
    latencyMs: 5,
    outcome: 'ok',
    turnStatus: 'completed',
    ...overrides,
  };
}

// One delegating turn (Chair consults Treasurer), then a failed turn of Chair on a priced model,
// then a cancelled turn of another syndicate on the next day.
const rows: UsageRow[] = [
  row({ agent: 'Chair' }),
  row({ agent: 'Treasurer', at: DAY_ONE + 1 }),
  row({ agent: 'Chair', at: DAY_ONE + 2 }),
  row({ turnId: 't2', at: DAY_ONE + 3, provider: 'anthropic.messages', model: 'claude-sonnet-4-5', inputTokens: 1_000_000, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, outcome: 'error', turnStatus: 'failed' }),
  row({ turnId: 't3', at: DAY_TWO, syndicate: 'Council', agent: 'Moderator', outcome: 'cancelled', turnStatus: 'cancelled' }),
];

describe('usage summary', () => {
  it("rolls a turn's subagent calls up into that turn", () => {
    const { groups } = summarizeUsage(rows, 'turn', prices);
    expect(groups.map((g) => [g.key, g.calls, g.inputTokens])).toStrictEqual([
      ['t1', 3, 300],
      ['t2', 1, 1_000_000],
      ['t3', 1, 100],
    ]);
  });

  it('counts a turn once per group however many calls it made there', () => {
    const chair = summarizeUsage(rows, 'agent', prices).groups.find((g) => g.key === 'Chair (Boardroom)');
    expect(chair).toMatchObject({ calls: 3, turns: 2 });
  });

  it('counts failed and cancelled turns, and failed and cancelled calls apart from them', () => {
    const { total } = summarizeUsage(rows, 'syndicate', prices);
    expect(total).toMatchObject({ turns: 3, failedTurns: 1, cancelledTurns: 1, failedCalls: 1, cancelledCalls: 1 });
  });

  it('sums tokens, latency and cost over every row in the total', () => {
    const { total } = summarizeUsage(rows, 'agent', prices);
    expect(total).toMatchObject({ calls: 5, inputTokens: 1_000_400, outputTokens: 40, reasoningTokens: 16, cachedInputTokens: 80, latencyMs: 25 });
    expect(total.cost).toStrictEqual({ usd: 3, pricedCalls: 1, localCalls: 4, unknownCalls: 0, unknownModels: [] });
  });

  it('names agents with their syndicate and sorts names alphabetically', () => {
    expect(summarizeUsage(rows, 'agent', prices).groups.map((g) => g.key)).toStrictEqual(['Chair (Boardroom)', 'Moderator (Council)', 'Treasurer (Boardroom)']);
  });

  it('names models with their provider family unless the two are the same', () => {
    expect(summarizeUsage(rows, 'model', prices).groups.map((g) => g.key)).toStrictEqual(['claude-sonnet-4-5 (anthropic)', 'scripted']);
  });

  it('groups by local calendar day, oldest first', () => {
    const { groups } = summarizeUsage(rows, 'day', prices);
    expect(groups.map((g) => [g.key, g.calls, g.firstAt])).toStrictEqual([
      ['2026-11-01', 4, DAY_ONE],
      ['2026-11-02', 1, DAY_TWO],
    ]);
  });

  it('has no groups and zero totals for an empty ledger', () => {
    const summary = summarizeUsage([], 'agent', prices);
    expect(summary.groups).toStrictEqual([]);
    expect(summary.total).toMatchObject({ calls: 0, turns: 0, inputTokens: 0 });
  });
});
