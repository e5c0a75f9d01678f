import { describe, expect, it } from 'vitest';
import type { UsageFigures } from '../../../src/core/events.js';
import { SHIPPED_PRICES, type PriceTable } from '../../../src/telemetry/ledger/prices.js';
import { addCost, costOf, describeCost, emptyCost, priceOf, type CostTotal } from '../../../src/telemetry/ledger/pricing.js';

const table: PriceTable = {
  asOf: '2025-11-24',
  providers: {
    anthropic: { 'claude-sonnet-4-5': { input: 3, output: 15, cachedInput: 0.3 } },
    openai: { 'gpt-5': { input: 1.25, output: 10 } },
    ollama: { '*': 'local' },
  },
};

function usage(overrides: Partial<UsageFigures> = {}): UsageFigures {
  return { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedInputTokens: 0, ...overrides };
}

function total(calls: Array<[provider: string, model: string, figures: UsageFigures]>): CostTotal {
  const cost = emptyCost();
  for (const [provider, model, figures] of calls) addCost(cost, priceOf(table, provider, model), provider, model, figures);
  return cost;
}

describe('prices', () => {
  it('prices a known model per million tokens, cached input at its own rate', () => {
    const price = priceOf(table, 'anthropic.messages', 'claude-sonnet-4-5');
    // 800k uncached at $3, 200k cached at $0.30, 100k output at $15.
    expect(costOf(price, usage({ inputTokens: 1_000_000, cachedInputTokens: 200_000, outputTokens: 100_000 }))).toBeCloseTo(2.4 + 0.06 + 1.5, 10);
  });

  it('bills thinking tokens as output without counting them twice', () => {
    const price = priceOf(table, 'anthropic.messages', 'claude-sonnet-4-5');
    expect(costOf(price, usage({ outputTokens: 1_000_000, reasoningTokens: 600_000 }))).toBeCloseTo(15, 10);
  });

  it('prices cached input at the input rate when the model has no cached price', () => {
    expect(costOf(priceOf(table, 'openai.responses', 'gpt-5'), usage({ inputTokens: 1_000_000, cachedInputTokens: 1_000_000 }))).toBeCloseTo(1.25, 10);
  });

  it("gives a dated version of a model the undated model's price", () => {
    expect(priceOf(table, 'anthropic.messages', 'claude-sonnet-4-5-20250929')).toStrictEqual(table.providers.anthropic!['claude-sonnet-4-5']);
    expect(priceOf(table, 'openai.responses', 'gpt-5-2025-08-07')).toStrictEqual(table.providers.openai!['gpt-5']);
  });

  it('has no price for a model whose name merely extends a priced one', () => {
    expect(priceOf(table, 'openai.responses', 'gpt-5-nano')).toBeUndefined();
  });

  it('has no price for an unknown model or provider, and never calls that $0', () => {
    const cost = total([
      ['openai.responses', 'gpt-9', usage({ inputTokens: 1_000 })],
      ['lmstudio.chat', 'qwen3-8b', usage({ inputTokens: 1_000 })],
    ]);
    expect(costOf(undefined, usage({ inputTokens: 1_000 }))).toBeUndefined();
    expect(cost).toMatchObject({ unknownCalls: 2, pricedCalls: 0, unknownModels: ['lmstudio/qwen3-8b', 'openai/gpt-9'] });
    expect(describeCost(cost)).toBe('price unknown');
  });

  it('calls ollama, scripted and local models "local", not $0.00', () => {
    const shipped = (provider: string, model: string) => priceOf(SHIPPED_PRICES, provider, model);
    expect([shipped('ollama.responses', 'qwen3:8b'), shipped('scripted', 'scripted'), shipped('local', 'tiny.gguf')]).toStrictEqual(['local', 'local', 'local']);
    const cost = total([['ollama.responses', 'qwen3:8b', usage({ inputTokens: 5_000, outputTokens: 500 })]]);
    expect(cost).toMatchObject({ usd: 0, localCalls: 1 });
    expect(describeCost(cost)).toBe('local');
  });

  it('shows a mix of priced and unpriced calls as the priced sum plus "price unknown"', () => {
    const cost = total([
      ['openai.responses', 'gpt-5', usage({ outputTokens: 100_000 })],
      ['openai.responses', 'gpt-9', usage({ outputTokens: 100_000 })],
    ]);
    expect(describeCost(cost)).toBe('$1.0000 + price unknown');
  });

  it('shows priced calls in dollars, local ones adding nothing', () => {
    const cost = total([
      ['openai.responses', 'gpt-5', usage({ outputTokens: 1_234 })],
      ['ollama.responses', 'llama3', usage({ outputTokens: 1_000_000 })],
    ]);
    expect(describeCost(cost)).toBe('$0.0123');
  });

  it('ships a date and a price for every model family the brief names', () => {
    expect(SHIPPED_PRICES.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const models = [
      ['google.generative-ai', 'gemini-2.5-flash'],
      ['google.generative-ai', 'gemini-2.5-pro'],
      ['anthropic.messages', 'claude-sonnet-4-5'],
      ['anthropic.messages', 'claude-opus-4-1'],
      ['anthropic.messages', 'claude-haiku-4-5'],
      ['openai.responses', 'gpt-4.1'],
      ['openai.responses', 'gpt-4.1-mini'],
      ['openai.responses', 'gpt-5'],
      ['openai.responses', 'gpt-5-mini'],
      ['openai.responses', 'o4-mini'],
      ['xai.chat', 'grok-4'],
    ];
    for (const [provider, model] of models) expect(priceOf(SHIPPED_PRICES, provider!, model!), model).toMatchObject({ input: expect.any(Number) });
  });
});
