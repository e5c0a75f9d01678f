import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageRow } from '../../src/store/store.js';
import { SHIPPED_PRICES } from '../../src/telemetry/ledger/prices.js';
import { startTestServer, type TestServer } from './serverFixture.js';

// GET /usage over a real ledger: the CLI's groupings with cost; a member sees only the calls of
// their own sessions, an admin every call.

let t: TestServer;
const OLD_CALL = Date.UTC(2020, 0, 1, 12);

function row(overrides: Partial<UsageRow>): UsageRow {
  return {
    at: Date.now(),
    syndicate: 'Council',
    sessionId: 'api:alice:one',
    turnId: 'turn-1',
    agent: 'Moderator',
    provider: 'anthropic.messages',
    model: 'claude-sonnet-4-5',
    inputTokens: 1_000,
    outputTokens: 100,
    reasoningTokens: 0,
    cachedInputTokens: 0,
    latencyMs: 10,
    outcome: 'ok',
    turnStatus: 'completed',
    ...overrides,
  };
}

beforeAll(async () => {
  t = await startTestServer(['council.yaml']);
  await (await t.platform.store()).recordUsage([
    row({}),
    row({ agent: 'Advocate', turnId: 'turn-1' }),
    row({ sessionId: 'api:bob:one', turnId: 'turn-2', inputTokens: 5_000 }),
    row({ at: OLD_CALL, sessionId: 'api:alice:old', turnId: 'turn-0' }),
  ]);
});

afterAll(async () => {
  await t.server.close({ graceMs: 0 });
});

type Usage = { by: string; rows: Array<{ key: string; calls: number; inputTokens: number; costUsd: number | null }>; total: { calls: number; inputTokens: number; costUsd: number | null } };

describe('GET /usage', () => {
  it("groups a member's own calls by agent, with cost", async () => {
    const body = (await (await t.api('/usage?by=agent&since=7d')).json()) as Usage;
    expect(body.by).toBe('agent');
    expect(body.rows.map((r) => [r.key, r.calls]).sort()).toStrictEqual([
      ['Advocate (Council)', 1],
      ['Moderator (Council)', 1],
    ]);
    expect(body.total.inputTokens).toBe(2_000);
    expect(body.total.costUsd).toBeGreaterThan(0);
  });

  it("groups a member's own calls by model, day and turn too, each group with its cost", async () => {
    const by = async (grouping: string) => (await (await t.api(`/usage?by=${grouping}`)).json()) as Usage;
    const [model, day, turn] = await Promise.all([by('model'), by('day'), by('turn')]);
    // Days are local calendar days, as `syndicate usage` shows them.
    const localDay = (ms: number) => new Date(ms).toLocaleDateString('sv-SE');

    expect(model.rows.map((r) => [r.key, r.calls])).toStrictEqual([[expect.stringContaining('claude-sonnet-4-5'), 3]]);
    expect(day.rows.map((r) => [r.key, r.calls]).sort()).toStrictEqual([[localDay(OLD_CALL), 1], [localDay(Date.now()), 2]]);
    expect(turn.rows.map((r) => [r.key, r.calls]).sort()).toStrictEqual([['turn-0', 1], ['turn-1', 2]]);
    for (const grouping of [model, day, turn]) {
      expect(grouping.rows.every((r) => r.costUsd !== null && r.costUsd > 0)).toBe(true);
      expect(grouping.total).toMatchObject({ calls: 3, inputTokens: 3_000 });
    }
  });

  it('shows an admin every call', async () => {
    const body = (await (await t.api('/usage?by=syndicate', { key: 'admin-key' })).json()) as Usage;
    expect(body.total.calls).toBe(4);
  });

  it('names the field at fault for a time it cannot read', async () => {
    const response = await t.api('/usage?since=yesterday-ish');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: Array<{ pointer: string }> }).errors[0]!.pointer).toBe('#/query/since');
  });

  it('refuses a grouping the CLI does not have', async () => {
    expect((await t.api('/usage?by=colour')).status).toBe(400);
  });

  it("counts the runs of a member's scheduled tasks as the member's calls", async () => {
    await (await t.platform.store()).recordUsage([row({ sessionId: 'task:alice:task-1:2026-12-02T08:00:00.000Z', turnId: 'turn-3', agent: 'Scout' })]);

    const alices = (await (await t.api('/usage?by=agent&since=7d')).json()) as Usage;
    const bobs = (await (await t.api('/usage?by=agent&since=7d', { key: 'bob-key' })).json()) as Usage;
    expect(alices.rows.map((r) => r.key)).toContain('Scout (Council)');
    expect(bobs.rows.map((r) => r.key)).not.toContain('Scout (Council)');
  });
});

describe('GET /usage/prices', () => {
  it('answers the table the server costs calls with, its overrides included', async () => {
    const prices = { asOf: '2026-12-01', providers: { ...SHIPPED_PRICES.providers, scripted: { '*': { input: 3, output: 15 } } } };
    const priced = await startTestServer(['council.yaml'], { prices });
    try {
      const response = await priced.api('/usage/prices');

      expect(response.status).toBe(200);
      expect(await response.json()).toStrictEqual(prices);
    } finally {
      await priced.server.close({ graceMs: 0 });
    }
  });
});
