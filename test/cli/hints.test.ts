import { spawn } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, cliEnv, runCli, tempDir, type CliResult } from './cli.js';

// Every command the CLI prints for the person to paste works when pasted: each test takes the
// printed line and runs it through a shell, with `syndicate` on PATH as `npm link` puts it.

const home = tempDir('hints');
const bin = join(home.path, 'bin');
const work = join(home.path, 'work');

beforeAll(() => {
  mkdirSync(bin);
  mkdirSync(work);
  symlinkSync(CLI, join(bin, 'syndicate'));
  writeFileSync(
    join(work, 'planner.yaml'),
    [
      'syndicate_name: Planner',
      'orchestrator:',
      '  name: Planner',
      '  model: gpt-4.1-mini',
      '  instruction: Plan offsites.',
      '  tools: [ask_user]',
      '  script:',
      '    - match: offsite',
      '      tool_calls: [{ tool: ask_user, args: { question: Which city? } }]',
      '    - match: lisbon',
      '      reply: Lisbon it is.',
      '',
    ].join('\n'),
  );
});
afterAll(home.remove);

function pasted(command: string, input = '', env: Record<string, string> = {}): Promise<CliResult> {
  const child = spawn('sh', ['-c', command], { cwd: work, env: cliEnv(home.path, { ...env, PATH: `${bin}:${process.env.PATH}` }), stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.end(input);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function printed(output: string, label: string): string {
  const line = output.split('\n').find((candidate) => candidate.startsWith(label));
  if (!line) throw new Error(`no '${label}' line in:\n${output}`);
  return line.slice(label.length).trim();
}

describe('hints the CLI prints', () => {
  it("'Resume with' after a run continues the session in a chat", async () => {
    const run = await runCli(['run', 'quartermaster', 'Plan the budget.', '--offline', '--new-session', 'hint-1'], { home: home.path, cwd: work });

    const resumed = await pasted(printed(run.stdout, 'Resume with:'), 'quit\n');

    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('Session hint-1.');
  });

  it("'Answer with' after exit 3 answers the question with one run", async () => {
    const asked = await runCli(['run', 'planner.yaml', 'Plan an offsite', '--offline', '--new-session', 'hint-2'], { home: home.path, cwd: work });
    expect(asked.code).toBe(3);

    const answered = await pasted(printed(asked.stdout, 'Answer with:').replace('<your answer>', 'Lisbon'));

    expect(answered.code).toBe(0);
    expect(answered.stdout).toContain('Lisbon it is.');
  });

  it('carries ALLOW_PRIVATE_MCP=true into the hint when the run had it', async () => {
    const run = await runCli(['run', 'quartermaster', 'Plan the budget.', '--offline'], { home: home.path, cwd: work, env: { ALLOW_PRIVATE_MCP: 'true' } });

    expect(printed(run.stdout, 'Resume with:')).toMatch(/^ALLOW_PRIVATE_MCP=true syndicate chat quartermaster --session \S+ --offline$/);
  });
});

describe('--session and --new-session', () => {
  it('refuses to resume a session that does not exist, naming the recent ones', async () => {
    await runCli(['run', 'quartermaster', 'Plan the budget.', '--offline', '--new-session', 'known-1'], { home: home.path, cwd: work });

    const result = await runCli(['run', 'quartermaster', 'Again.', '--offline', '--session', 'knwon-1'], { home: home.path, cwd: work });

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/no session knwon-1 to resume\. Recent sessions of 'Quartermaster': [^\n]*known-1[^\n]*\. To start a new session with this id, use --new-session knwon-1/);
  });

  it('refuses --new-session with the id of a stored session', async () => {
    await runCli(['run', 'quartermaster', 'Plan the budget.', '--offline', '--new-session', 'taken-1'], { home: home.path, cwd: work });

    const result = await runCli(['run', 'quartermaster', 'Again.', '--offline', '--new-session', 'taken-1'], { home: home.path, cwd: work });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('session taken-1 already exists — resume it with --session taken-1');
  });
});
