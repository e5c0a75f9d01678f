import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BOARDROOM_PROPOSAL, runCli, startCli, tempDir } from './cli.js';

// `syndicate run … | head -1`: the reader goes away after the first line and the next write
// fails with EPIPE. That ends the command quietly, and what the run did is still recorded.

interface UsageJson {
  total: { calls: number; turns: number };
}

async function usageTotal(home: string): Promise<UsageJson['total']> {
  return (JSON.parse((await runCli(['usage', '--json'], { home })).stdout) as UsageJson).total;
}

describe('a command whose stdout is closed early', () => {
  let home: ReturnType<typeof tempDir>;
  beforeEach(() => {
    home = tempDir('closed-output');
  });
  afterEach(() => home.remove());

  it('run exits 0 and still writes the usage rows of the model calls it made', async () => {
    const cli = startCli(['run', 'boardroom', BOARDROOM_PROPOSAL, '--offline'], { home: home.path });
    cli.child.stdin?.end();
    cli.child.stdout!.once('data', () => cli.child.stdout!.destroy());

    const run = await cli.result;
    const total = await usageTotal(home.path);

    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(total.turns).toBe(1);
    expect(total.calls).toBeGreaterThan(0);
  });

  it('chat ends, exits 0 and still writes the usage rows of the turn that was running', async () => {
    const cli = startCli(['chat', 'boardroom', '--offline'], { home: home.path });
    cli.child.stdout!.once('data', () => {
      cli.child.stdout!.destroy();
      cli.child.stdin!.write(`${BOARDROOM_PROPOSAL}\n`);
    });

    const chat = await cli.result;
    const total = await usageTotal(home.path);

    expect([chat.code, chat.stderr]).toEqual([0, '']);
    expect(total.turns).toBe(1);
    expect(total.calls).toBeGreaterThan(0);
  });
});
