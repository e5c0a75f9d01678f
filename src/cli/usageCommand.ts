import { resolve } from 'node:path';
import { loadPrices } from '../telemetry/ledger/loadPrices.js';
import type { PriceTable } from '../telemetry/ledger/prices.js';
import { describeCost } from '../telemetry/ledger/pricing.js';
import { parseSince } from '../telemetry/ledger/since.js';
import { summarizeUsage, type UsageGroup, type UsageSummary, type UsageTotals } from '../telemetry/ledger/summarizeUsage.js';
import { ExitCode } from './exitCodes.js';
import type { UsageOptions } from './options.js';
import { withExistingStore } from './openPlatform.js';
import { formatTime } from './text.js';
import { UsageError } from './usageError.js';

const write = (text: string): void => void process.stdout.write(text);

const HEADERS = ['CALLS', 'TURNS', 'INPUT', 'OUTPUT', 'THINKING', 'CACHED', 'COST', 'FAILED', 'CANCELLED'];

const count = (n: number): string => n.toLocaleString('en-US');

function cells(totals: UsageTotals): string[] {
  const { calls, turns, inputTokens, outputTokens, reasoningTokens, cachedInputTokens, failedTurns, cancelledTurns } = totals;
  return [calls, turns, inputTokens, outputTokens, reasoningTokens, cachedInputTokens].map(count).concat(describeCost(totals.cost), count(failedTurns), count(cancelledTurns));
}

function label(summary: UsageSummary, group: UsageGroup): string {
  return summary.by === 'turn' ? `${formatTime(group.firstAt)} ${group.key}` : group.key;
}

/** Names left-aligned, figures right-aligned, a blank column between. */
function table(summary: UsageSummary): string {
  const rows = [
    [summary.by.toUpperCase(), ...HEADERS],
    ...summary.groups.map((group) => [label(summary, group), ...cells(group)]),
    ['TOTAL', ...cells(summary.total)],
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]): string =>
    row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
  return rows.map(line).join('\n');
}

function notes(summary: UsageSummary, prices: PriceTable, pricesFile: string | undefined): string {
  const source = pricesFile === undefined ? 'the shipped price table' : `the shipped price table with ${pricesFile} over it`;
  const lines = [
    `Thinking tokens are part of OUTPUT, cached ones part of INPUT; FAILED and CANCELLED count turns. A turn's figures include its subagents' calls.`,
    `Cost in USD from ${source} (prices as of ${prices.asOf}; check them against the providers' price lists). "local": the model runs on this machine.`,
  ];
  const unknown = summary.total.cost.unknownModels;
  if (unknown.length > 0) {
    lines.push(`No price for ${unknown.join(', ')}: add one with --prices <file> or SYNDICATE_PRICES (same shape as the shipped table).`);
  }
  return lines.join('\n');
}

function sinceOf(options: UsageOptions): number | undefined {
  if (options.since === undefined) return undefined;
  try {
    return parseSince(options.since, Date.now());
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** `syndicate usage`: the ledger's calls, tokens and cost, grouped. */
export async function usageCommand(options: UsageOptions): Promise<number> {
  const since = sinceOf(options);
  const pricesFile = options.prices ?? (process.env.SYNDICATE_PRICES || undefined);
  const prices = loadPrices(pricesFile === undefined ? undefined : resolve(pricesFile));
  const { rows, storeName } = await withExistingStore(options.db, async (store, storeName) => ({
    rows: (await store?.queryUsage({ since, syndicate: options.syndicate })) ?? [],
    storeName,
  }));
  const summary = summarizeUsage(rows, options.by, prices);
  if (options.json) {
    write(`${JSON.stringify({ db: storeName, since: since ?? null, pricesAsOf: prices.asOf, ...summary })}\n`);
  } else if (summary.groups.length === 0) {
    const window = options.since === undefined ? '' : ` since ${options.since}`;
    write(`No usage recorded${window} in ${storeName}.\n`);
  } else {
    write(`${table(summary)}\n\n${notes(summary, prices, pricesFile)}\n`);
  }
  return ExitCode.ok;
}
