// The price table shipped with syndicate. CHECK THESE FIGURES before relying on a cost: they are
// public list prices as known on `asOf`, copied by hand, not fetched, and providers change them.
// Override or extend them with a JSON file of the same shape (SYNDICATE_PRICES or --prices).
//
// Known simplifications, all of which under-state a cost:
// - One price per model: long-context tiers (Gemini 2.5 Pro and Claude Sonnet 4/4.5 above 200k
//   prompt tokens) and batch or priority tiers are not modelled.
// - Cache writes (Anthropic charges 1.25x input) are priced as plain input.
// Thinking (reasoning) tokens are billed as output by every provider here; the ledger's output
// counts already include them.

/** USD per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  /** Cached input read; input tokens are priced at `input` when absent. */
  cachedInput?: number;
}

/** 'local': the model runs on this machine, so it has no per-token price (cost 0 by definition). */
export type PriceEntry = ModelPrice | 'local';

export interface PriceTable {
  /** When the prices were taken (YYYY-MM-DD). */
  asOf: string;
  /**
   * Keyed by provider family (a usage row's provider up to its first '.', e.g. 'anthropic' for
   * 'anthropic.messages', or an openai-compatible server's name), then by model id; '*' stands for
   * every model of the provider.
   */
  providers: Record<string, Record<string, PriceEntry>>;
}

export const SHIPPED_PRICES: PriceTable = {
  asOf: '2025-11-24',
  providers: {
    google: {
      'gemini-2.5-pro': { input: 1.25, output: 10, cachedInput: 0.125 },
      'gemini-2.5-flash': { input: 0.3, output: 2.5, cachedInput: 0.03 },
      'gemini-2.5-flash-lite': { input: 0.1, output: 0.4, cachedInput: 0.01 },
    },
    anthropic: {
      'claude-opus-4-5': { input: 5, output: 25, cachedInput: 0.5 },
      'claude-opus-4-1': { input: 15, output: 75, cachedInput: 1.5 },
      'claude-opus-4': { input: 15, output: 75, cachedInput: 1.5 },
      'claude-opus-4-0': { input: 15, output: 75, cachedInput: 1.5 },
      'claude-sonnet-4-5': { input: 3, output: 15, cachedInput: 0.3 },
      'claude-sonnet-4': { input: 3, output: 15, cachedInput: 0.3 },
      'claude-sonnet-4-0': { input: 3, output: 15, cachedInput: 0.3 },
      'claude-haiku-4-5': { input: 1, output: 5, cachedInput: 0.1 },
      'claude-3-5-haiku': { input: 0.8, output: 4, cachedInput: 0.08 },
    },
    openai: {
      'gpt-5.1': { input: 1.25, output: 10, cachedInput: 0.125 },
      'gpt-5': { input: 1.25, output: 10, cachedInput: 0.125 },
      'gpt-5-mini': { input: 0.25, output: 2, cachedInput: 0.025 },
      'gpt-5-nano': { input: 0.05, output: 0.4, cachedInput: 0.005 },
      'gpt-4.1': { input: 2, output: 8, cachedInput: 0.5 },
      'gpt-4.1-mini': { input: 0.4, output: 1.6, cachedInput: 0.1 },
      'gpt-4.1-nano': { input: 0.1, output: 0.4, cachedInput: 0.025 },
      'gpt-4o': { input: 2.5, output: 10, cachedInput: 1.25 },
      'gpt-4o-mini': { input: 0.15, output: 0.6, cachedInput: 0.075 },
      o3: { input: 2, output: 8, cachedInput: 0.5 },
      'o4-mini': { input: 1.1, output: 4.4, cachedInput: 0.275 },
    },
    xai: {
      'grok-4': { input: 3, output: 15, cachedInput: 0.75 },
      'grok-3-mini': { input: 0.3, output: 0.5, cachedInput: 0.075 },
    },
    ollama: { '*': 'local' },
    scripted: { '*': 'local' },
    local: { '*': 'local' },
  },
};
