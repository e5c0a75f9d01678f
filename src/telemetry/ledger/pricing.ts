import type { UsageFigures } from '../../core/events.js';
import type { PriceEntry, PriceTable } from './prices.js';

const TOKENS_PER_PRICE_UNIT = 1_000_000;

// Providers answer with dated versions of a model (claude-sonnet-4-5-20250929, gpt-4.1-2025-04-14,
// grok-4-0709): those take the undated model's price. Any other suffix is a different model
// (gpt-5-nano is not gpt-5), so it gets no price rather than a wrong one.
const VERSION_SUFFIX = /-(\d{4}|\d{8}|\d{4}-\d{2}-\d{2}|latest)$/;

/** A usage row's provider ('anthropic.messages') as the price table keys it ('anthropic'). */
export function providerFamily(provider: string): string {
  const dot = provider.indexOf('.');
  return dot === -1 ? provider : provider.slice(0, dot);
}

/** The price of a model, or undefined when the table has none. */
export function priceOf(table: PriceTable, provider: string, model: string): PriceEntry | undefined {
  const models = table.providers[providerFamily(provider)];
  if (models === undefined) return undefined;
  return models[model] ?? models[model.replace(VERSION_SUFFIX, '')] ?? models['*'];
}

/** What one call cost in USD; undefined when its price is unknown, 0 for a local model. */
export function costOf(price: PriceEntry | undefined, usage: UsageFigures): number | undefined {
  if (price === undefined) return undefined;
  if (price === 'local') return 0;
  const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
  const uncached = usage.inputTokens - cached;
  // Output counts include reasoning tokens, which every provider bills as output.
  const micros = uncached * price.input + cached * (price.cachedInput ?? price.input) + usage.outputTokens * price.output;
  return micros / TOKENS_PER_PRICE_UNIT;
}

/** The cost of many calls, some of which may be local or unpriced. */
export interface CostTotal {
  /** The sum over priced calls: a lower bound when `unknownCalls` > 0. */
  usd: number;
  pricedCalls: number;
  localCalls: number;
  unknownCalls: number;
  /** Provider family and model of the unpriced calls ('openai/gpt-9'), sorted. */
  unknownModels: string[];
}

export function emptyCost(): CostTotal {
  return { usd: 0, pricedCalls: 0, localCalls: 0, unknownCalls: 0, unknownModels: [] };
}

/** Adds one call to `total`. */
export function addCost(total: CostTotal, price: PriceEntry | undefined, provider: string, model: string, usage: UsageFigures): void {
  const usd = costOf(price, usage);
  if (price === 'local') total.localCalls += 1;
  else if (usd === undefined) {
    total.unknownCalls += 1;
    const name = `${providerFamily(provider)}/${model}`;
    if (!total.unknownModels.includes(name)) total.unknownModels = [...total.unknownModels, name].sort();
  } else {
    total.pricedCalls += 1;
    total.usd += usd;
  }
}

export function formatUsd(usd: number): string {
  return `$${usd.toFixed(4)}`;
}

/** How a person reads a cost: never "$0" for a model whose price is unknown, "local" for local models. */
export function describeCost(cost: CostTotal): string {
  if (cost.unknownCalls > 0) return cost.pricedCalls > 0 ? `${formatUsd(cost.usd)} + price unknown` : 'price unknown';
  if (cost.pricedCalls > 0) return formatUsd(cost.usd);
  return cost.localCalls > 0 ? 'local' : '-';
}
