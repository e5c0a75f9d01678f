import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './cli.js';

const dir = tempDir('usage');
afterAll(dir.remove);

const EXIT_TABLE = /Exit codes:\n {2}0 {4}ok\n {2}1 {4}.+\n {2}2 {4}usage error.+\n {2}3 {4}the turn ended waiting.+\n {2}130 {2}cancelled by Ctrl-C/;

describe('usage', () => {
  it('exits 2 for an unknown command', async () => {
    const result = await runCli(['frobnicate'], { home: dir.path });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown command 'frobnicate'");
  });

  it('exits 2 for a missing argument or an unknown option', async () => {
    expect((await runCli(['run'], { home: dir.path })).code).toBe(2);
    expect((await runCli(['validate'], { home: dir.path })).code).toBe(2);
    expect((await runCli(['run', 'council', 'hi', '--frob'], { home: dir.path })).code).toBe(2);
    expect((await runCli([], { home: dir.path })).code).toBe(2);
  });

  it.each([[], ['run'], ['chat'], ['validate'], ['sessions'], ['sessions', 'list'], ['sessions', 'show'], ['sessions', 'delete'], ['usage']].map((command) => ({ command })))(
    'prints help with a description and the exit codes: syndicate $command --help',
    async ({ command }) => {
      const result = await runCli([...command, '--help'], { home: dir.path });
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^Usage: syndicate/);
      expect(result.stdout).toMatch(EXIT_TABLE);
    },
  );

  it('resolves a name from ./syndicates/ before the bundled examples', async () => {
    mkdirSync(join(dir.path, 'syndicates'), { recursive: true });
    writeFileSync(
      join(dir.path, 'syndicates', 'council.yaml'),
      'syndicate_name: "Local Council"\norchestrator:\n  name: "Clerk"\n  model: "gpt-4.1-mini"\n  instruction: "Answer."\nsubagents: []\n',
    );
    writeFileSync(
      join(dir.path, 'syndicates', 'helper.yml'),
      'syndicate_name: "Helper"\norchestrator:\n  name: "Helper"\n  model: "gpt-4.1-mini"\n  instruction: "Help."\nsubagents: []\n',
    );
    const local = await runCli(['run', 'council', 'hi', '--offline'], { home: dir.path });
    expect(local.code).toBe(0);
    expect(local.stdout).toContain('Clerk:\n[Clerk] On "hi"');
    const yml = await runCli(['run', 'helper', 'hi', '--offline'], { home: dir.path });
    expect(yml.code).toBe(0);
    expect(yml.stdout).toContain('Helper:\n[Helper] On "hi"');
  });

  it('finds the bundled examples from any working directory', async () => {
    const result = await runCli(['run', 'quartermaster', 'budget', '--offline'], { home: dir.path, cwd: '/' });
    expect(result.code).toBe(0);
  });
});
