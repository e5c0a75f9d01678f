import { costOf, priceOf } from '../../telemetry/ledger/pricing.js';
import type { PriceTable } from '../../telemetry/ledger/prices.js';
import type { TreeOptions } from '../tree/delegationTree.js';
import { getJson } from './api.js';

// Figures as the studio shows them. Calls are costed with the server's own price table (the
// shipped one merged with its SYNDICATE_PRICES), read once, so the tree agrees with the Usage page.

export type CallCost = NonNullable<TreeOptions['costOf']>;

export function costWith(prices: PriceTable): CallCost {
  return (provider, model, tokens) =>
    costOf(priceOf(prices, provider, model), { inputTokens: tokens.input, outputTokens: tokens.output, reasoningTokens: tokens.reasoning, cachedInputTokens: tokens.cachedInput });
}

let serverCost: Promise<CallCost> | undefined;

/** The server's pricing; a failed read is tried again next time rather than remembered. */
export function callCost(): Promise<CallCost> {
  serverCost ??= getJson<PriceTable>('/usage/prices').then(costWith, (error: unknown) => {
    serverCost = undefined;
    throw error;
  });
  return serverCost;
}

export function usd(value: number | null): string {
  if (value === null) return 'no price';
  if (value === 0) return '$0';
  return value < 0.01 ? `$${value.toFixed(4)}` : `$${value.toFixed(2)}`;
}

export function tokens(count: number): string {
  return count < 1000 ? String(count) : `${(count / 1000).toFixed(1)}k`;
}

export function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export function when(ms: number): string {
  return new Date(ms).toLocaleString();
}

const TITLE_LENGTH = 60;

/** A session as people name it: its first message on one line, cut short; undefined before one is sent. */
export function sessionTitle(firstMessage: string | undefined): string | undefined {
  const line = firstMessage?.replace(/\s+/g, ' ').trim();
  if (!line) return undefined;
  return line.length <= TITLE_LENGTH ? line : `${line.slice(0, TITLE_LENGTH - 1).trimEnd()}…`;
}

export function json(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}
