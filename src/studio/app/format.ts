import { costOf, priceOf } from '../../telemetry/ledger/pricing.js';
import { SHIPPED_PRICES } from '../../telemetry/ledger/prices.js';
import type { TreeOptions } from '../tree/delegationTree.js';

// Figures as the studio shows them, and the prices it costs calls with: the table shipped with
// syndicate (a server's SYNDICATE_PRICES overrides show in the Usage page, which the server prices).

export const callCost: NonNullable<TreeOptions['costOf']> = (provider, model, tokens) =>
  costOf(priceOf(SHIPPED_PRICES, provider, model), { inputTokens: tokens.input, outputTokens: tokens.output, reasoningTokens: tokens.reasoning, cachedInputTokens: tokens.cachedInput });

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
