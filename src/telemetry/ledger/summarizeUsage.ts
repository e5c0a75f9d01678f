import type { UsageRow } from '../../store/store.js';
import type { PriceTable } from './prices.js';
import { addCost, emptyCost, priceOf, providerFamily, type CostTotal } from './pricing.js';

export const USAGE_GROUPINGS = ['agent', 'model', 'syndicate', 'day', 'turn'] as const;

export type UsageGrouping = (typeof USAGE_GROUPINGS)[number];

export interface UsageTotals {
  /** Distinct turns; a delegating turn counts once, whichever agents it reached. */
  turns: number;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** Included in outputTokens. */
  reasoningTokens: number;
  /** Included in inputTokens. */
  cachedInputTokens: number;
  latencyMs: number;
  /** Turns that ended failed or cancelled. */
  failedTurns: number;
  cancelledTurns: number;
  /** Calls whose outcome was 'error' or 'cancelled' (a completed turn can contain some). */
  failedCalls: number;
  cancelledCalls: number;
  cost: CostTotal;
}

export interface UsageGroup extends UsageTotals {
  /** What the rows share, as a person reads it; a turn's id for 'turn'. */
  key: string;
  /** When the group's first call ended. */
  firstAt: number;
}

export interface UsageSummary {
  by: UsageGrouping;
  groups: UsageGroup[];
  total: UsageTotals;
}

interface Tally {
  totals: UsageTotals;
  firstAt: number;
  turns: Set<string>;
  failed: Set<string>;
  cancelled: Set<string>;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** The local calendar day, YYYY-MM-DD. */
function localDay(at: number): string {
  const d = new Date(at);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

function keyOf(by: UsageGrouping, row: UsageRow): string {
  switch (by) {
    // Agents are named per syndicate, and two syndicates may both have a "Chair".
    case 'agent':
      return `${row.agent} (${row.syndicate})`;
    case 'model': {
      const family = providerFamily(row.provider);
      return family === row.model ? row.model : `${row.model} (${family})`;
    }
    case 'syndicate':
      return row.syndicate;
    case 'day':
      return localDay(row.at);
    case 'turn':
      return row.turnId;
  }
}

function emptyTally(firstAt: number): Tally {
  const totals: UsageTotals = {
    turns: 0,
    calls: 0,
    inputTokens: 0,
    outputTokens: 0,
    reasoningTokens: 0,
    cachedInputTokens: 0,
    latencyMs: 0,
    failedTurns: 0,
    cancelledTurns: 0,
    failedCalls: 0,
    cancelledCalls: 0,
    cost: emptyCost(),
  };
  return { totals, firstAt, turns: new Set(), failed: new Set(), cancelled: new Set() };
}

function add(tally: Tally, row: UsageRow, prices: PriceTable): void {
  const t = tally.totals;
  t.calls += 1;
  t.inputTokens += row.inputTokens;
  t.outputTokens += row.outputTokens;
  t.reasoningTokens += row.reasoningTokens;
  t.cachedInputTokens += row.cachedInputTokens;
  t.latencyMs += row.latencyMs;
  if (row.outcome === 'error') t.failedCalls += 1;
  if (row.outcome === 'cancelled') t.cancelledCalls += 1;
  tally.turns.add(row.turnId);
  if (row.turnStatus === 'failed') tally.failed.add(row.turnId);
  if (row.turnStatus === 'cancelled') tally.cancelled.add(row.turnId);
  addCost(t.cost, priceOf(prices, row.provider, row.model), row.provider, row.model, row);
}

function finish(tally: Tally): UsageTotals {
  return { ...tally.totals, turns: tally.turns.size, failedTurns: tally.failed.size, cancelledTurns: tally.cancelled.size };
}

const CHRONOLOGICAL: ReadonlySet<UsageGrouping> = new Set(['day', 'turn']);

/** Totals per group and overall. `rows` must be in time order, as Store.queryUsage returns them. */
export function summarizeUsage(rows: readonly UsageRow[], by: UsageGrouping, prices: PriceTable): UsageSummary {
  const tallies = new Map<string, Tally>();
  const total = emptyTally(rows[0]?.at ?? 0);
  for (const row of rows) {
    const key = keyOf(by, row);
    let tally = tallies.get(key);
    if (!tally) tallies.set(key, (tally = emptyTally(row.at)));
    add(tally, row, prices);
    add(total, row, prices);
  }
  const groups = [...tallies].map(([key, tally]): UsageGroup => ({ key, firstAt: tally.firstAt, ...finish(tally) }));
  // Days and turns read best in the order they happened (map insertion order); names alphabetically.
  if (!CHRONOLOGICAL.has(by)) groups.sort((a, b) => a.key.localeCompare(b.key));
  return { by, groups, total: finish(total) };
}
