import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOARDROOM_PROPOSAL, runCli, tempDir } from './cli.js';
import { SEED_EXAMPLES_DIR } from '../seedExamplesDir.js';

// The ledger end to end through the built CLI: turns run by `run` are read back by `usage`.

const BOARDROOM_AGENTS = ['Chair', 'Council', 'Advocate', 'Skeptic', 'Treasurer'];

/** The table's rows (header first, TOTAL last) split into cells; cells are at least two spaces apart. */
function tableRows(stdout: string): string[][] {
  return stdout
    .split('\n\n')[0]!
    .split('\n')
    .map((line) => line.trim().split(/\s{2,}/));
}

function rowOf(stdout: string, label: string): Record<string, string> {
  const [header, ...rows] = tableRows(stdout);
  const row = rows.find((cells) => cells[0] === label);
  if (!row) throw new Error(`no row '${label}' in:\n${stdout}`);
  return Object.fromEntries(header!.map((name, index) => [name, row[index]!]));
}

interface UsageJson {
  groups: Array<{ key: string; calls: number; failedTurns: number; cost: { localCalls: number; pricedCalls: number; usd: number } }>;
  total: { calls: number; turns: number; cost: { localCalls: number } };
}

describe('syndicate usage after an offline run', () => {
  const home = tempDir('ledger');
  beforeAll(async () => {
    expect((await runCli(['run', 'boardroom', BOARDROOM_PROPOSAL, '--offline'], { home: home.path })).code).toBe(0);
  });
  afterAll(home.remove);

  it('shows each agent with its calls, token counts and "local" cost', async () => {
    const result = await runCli(['usage'], { home: home.path });
    expect(result.code).toBe(0);
    for (const agent of BOARDROOM_AGENTS) {
      const row = rowOf(result.stdout, `${agent} (Boardroom)`);
      expect(Number(row.CALLS)).toBeGreaterThan(0);
      expect(Number(row.INPUT!.replace(/,/g, ''))).toBeGreaterThan(0);
      expect(Number(row.OUTPUT!.replace(/,/g, ''))).toBeGreaterThan(0);
      expect(row).toMatchObject({ TURNS: '1', COST: 'local', FAILED: '0', CANCELLED: '0' });
    }
    expect(rowOf(result.stdout, 'TOTAL')).toMatchObject({ TURNS: '1', COST: 'local' });
    expect(result.stdout).toContain('prices as of 2025-11-24');
  });

  it("rolls the subagents' calls up into the one turn that caused them", async () => {
    const result = await runCli(['usage', '--by', 'turn', '--json'], { home: home.path });
    const summary = JSON.parse(result.stdout) as UsageJson;
    expect(summary.groups).toHaveLength(1);
    expect(summary.groups[0]!.calls).toBe(summary.total.calls);
    expect(summary.total.cost.localCalls).toBe(summary.total.calls);
  });

  it('keeps only the calls since --since', async () => {
    const recent = await runCli(['usage', '--since', '1h', '--by', 'syndicate'], { home: home.path });
    expect(rowOf(recent.stdout, 'Boardroom')).toMatchObject({ TURNS: '1' });
    const future = await runCli(['usage', '--since', '2999-01-01'], { home: home.path });
    expect(future.code).toBe(0);
    expect(future.stdout).toBe(`No usage recorded since 2999-01-01 in ${join(home.path, 'syndicate.db')}.\n`);
  });

  it('prices calls from a --prices file merged over the shipped table', async () => {
    writeFileSync(join(home.path, 'prices.json'), JSON.stringify({ asOf: '2026-12-01', providers: { scripted: { '*': { input: 1_000_000, output: 0 } } } }));
    const result = await runCli(['usage', '--by', 'model', '--prices', 'prices.json'], { home: home.path });
    expect(result.code).toBe(0);
    // $1 per input token: the cost in dollars is the input token count.
    const row = rowOf(result.stdout, 'scripted');
    expect(row.COST).toBe(`$${Number(row.INPUT!.replace(/,/g, '')).toFixed(4)}`);
    expect(result.stdout).toContain('prices as of 2026-12-01');
  });

  it('takes the price file from SYNDICATE_PRICES too', async () => {
    const path = join(home.path, 'env-prices.json');
    writeFileSync(path, JSON.stringify({ providers: { scripted: { '*': { input: 0, output: 0 } } } }));
    const result = await runCli(['usage', '--by', 'model'], { home: home.path, env: { SYNDICATE_PRICES: path } });
    expect(rowOf(result.stdout, 'scripted').COST).toBe('$0.0000');
  });
});

describe('syndicate usage of failed and unstored turns', () => {
  const home = tempDir('ledger-failed');
  afterAll(home.remove);

  it('shows a turn whose model could not be called as failed, at zero tokens of a priced model', async () => {
    expect((await runCli(['run', 'boardroom', 'hello'], { home: home.path })).code).toBe(1);
    const result = await runCli(['usage', '--by', 'model'], { home: home.path });
    expect(rowOf(result.stdout, 'claude-sonnet-4-5 (anthropic)')).toMatchObject({ CALLS: '1', INPUT: '0', COST: '$0.0000', FAILED: '1', CANCELLED: '0' });
  });

  it('records every turn of a chat', async () => {
    const chat = await runCli(['chat', 'quartermaster', '--offline', '--new-session', 'trip'], { home: home.path, input: 'Plan the budget.\nAnd again.\n' });
    expect(chat.code).toBe(0);
    const result = await runCli(['usage', '--by', 'turn', '--syndicate', 'Quartermaster', '--json'], { home: home.path });
    expect((JSON.parse(result.stdout) as UsageJson).groups).toHaveLength(2);
  });

  it('records the calls of an internal-only syndicate while storing no session', async () => {
    expect((await runCli(['run', join(SEED_EXAMPLES_DIR, 'council.yaml'), 'Remote work beats the office.', '--offline'], { home: home.path })).code).toBe(0);
    const sessions = await runCli(['sessions', 'list', '--json'], { home: home.path });
    expect((JSON.parse(sessions.stdout) as Array<{ syndicate: string }>).map((s) => s.syndicate)).not.toContain('Council');
    const result = await runCli(['usage', '--syndicate', 'Council'], { home: home.path });
    expect(rowOf(result.stdout, 'Moderator (Council)')).toMatchObject({ TURNS: '1', COST: 'local' });
  });
});

describe('syndicate usage errors', () => {
  const home = tempDir('ledger-errors');
  afterAll(home.remove);

  it('says nothing was recorded, and creates no database, when there is none', async () => {
    const result = await runCli(['usage'], { home: home.path });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`No usage recorded in ${join(home.path, 'syndicate.db')}.\n`);
    expect(existsSync(join(home.path, 'syndicate.db'))).toBe(false);
  });

  it('exits 2 for a --since or --by it cannot read', async () => {
    const since = await runCli(['usage', '--since', 'yesterday'], { home: home.path });
    expect(since.code).toBe(2);
    expect(since.stderr).toContain("cannot read --since 'yesterday'");
    const by = await runCli(['usage', '--by', 'colour'], { home: home.path });
    expect(by.code).toBe(2);
    expect(by.stderr).toContain("argument 'colour' is invalid");
  });

  it('exits 1 for a malformed price file, naming it and the bad field', async () => {
    writeFileSync(join(home.path, 'bad-prices.json'), JSON.stringify({ providers: { openai: { 'gpt-9': { input: 'cheap', output: 1 } } } }));
    const result = await runCli(['usage', '--prices', 'bad-prices.json'], { home: home.path });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('bad-prices.json');
    expect(result.stderr).toContain('providers.openai.gpt-9.input');
  });
});
