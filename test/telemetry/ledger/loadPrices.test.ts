import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPrices, mergePrices } from '../../../src/telemetry/ledger/loadPrices.js';
import { SHIPPED_PRICES, type PriceTable } from '../../../src/telemetry/ledger/prices.js';
import { priceOf } from '../../../src/telemetry/ledger/pricing.js';

const dir = mkdtempSync(join(tmpdir(), 'syndicate-prices-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function priceFile(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const base: PriceTable = {
  asOf: '2025-11-24',
  providers: { openai: { 'gpt-5': { input: 1.25, output: 10 }, 'gpt-5-mini': { input: 0.25, output: 2 } } },
};

describe('price overrides', () => {
  it('lays the override over the table model by model, keeping models it does not name', () => {
    const merged = mergePrices(base, { asOf: '2026-11-30', providers: { openai: { 'gpt-5': { input: 1, output: 8 } } } });
    expect(merged).toStrictEqual({
      asOf: '2026-11-30',
      providers: { openai: { 'gpt-5': { input: 1, output: 8 }, 'gpt-5-mini': { input: 0.25, output: 2 } } },
    });
  });

  it('keeps the table date when the override gives none', () => {
    expect(mergePrices(base, { providers: {} }).asOf).toBe('2025-11-24');
  });

  it('reads an override file over the shipped table, e.g. pricing one model and marking a server local', () => {
    const path = priceFile('override.json', {
      asOf: '2026-11-30',
      providers: { openai: { 'gpt-9': { input: 5, output: 20, cachedInput: 0.5 } }, vllm: { '*': 'local' } },
    });
    const table = loadPrices(path);
    expect(priceOf(table, 'openai.responses', 'gpt-9')).toStrictEqual({ input: 5, output: 20, cachedInput: 0.5 });
    expect(priceOf(table, 'vllm.chat', 'qwen3-32b')).toBe('local');
    expect(priceOf(table, 'openai.responses', 'gpt-5')).toStrictEqual(priceOf(SHIPPED_PRICES, 'openai.responses', 'gpt-5'));
  });

  it('uses the shipped table when no file is named', () => {
    expect(loadPrices(undefined)).toBe(SHIPPED_PRICES);
  });

  it('rejects a price file with a bad entry, naming the file and the field', () => {
    const path = priceFile('bad.json', { providers: { openai: { 'gpt-9': { input: -1, output: 'cheap' } } } });
    expect(() => loadPrices(path)).toThrow(/invalid price file .*bad\.json:\n {2}providers\.openai\.gpt-9/);
  });

  it('rejects a price file that is not JSON, naming the file', () => {
    const path = priceFile('broken.json', '{ "providers": ');
    expect(() => loadPrices(path)).toThrow(/cannot read price file .*broken\.json/);
  });
});
