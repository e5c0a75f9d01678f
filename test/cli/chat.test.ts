import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli, tempDir } from './cli.js';

const home = tempDir('chat');

// An Ollama server that accepts the chat request and never answers: a turn that is honestly
// slow offline, so Ctrl-C can land while it runs.
let server: Server;
let ollamaUrl: string;
let requests: IncomingMessage[] = [];
let onRequest: (() => void) | undefined;

beforeAll(async () => {
  server = createServer((request) => {
    requests.push(request);
    onRequest?.();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  ollamaUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  home.remove();
});

function nextRequest(): Promise<void> {
  return new Promise((resolve) => (onRequest = resolve));
}

describe('syndicate chat', () => {
  it('runs each stdin line as a turn of one session and exits 0 on quit', async () => {
    const result = await runCli(['chat', 'quartermaster', '--offline', '--new-session', 'repl'], { home: home.path, input: 'hello\nbudget please\nquit\nnever sent\n' });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Quartermaster — Does the arithmetic of a budget with an exact calculator.\nSession repl.');
    expect(result.stdout).toContain('you › hello\n');
    expect(result.stdout).toContain('you › budget please\n⚙ Quartermaster calls calculator');
    expect(result.stdout).not.toContain('never sent');
    expect(result.stdout).toContain('Resume with: syndicate chat quartermaster --session repl --offline');
    const shown = await runCli(['sessions', 'show', 'repl'], { home: home.path });
    expect(shown.stdout).toContain('You: hello');
    expect(shown.stdout).toContain('── Turn 2 · ');
  });

  it('ends at end of input (Ctrl-D) with exit 0', async () => {
    const result = await runCli(['chat', 'council', '--offline'], { home: home.path, input: 'Is tea better than coffee?\n' });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Moderator:\nConsulted Advocate and Skeptic.');
  });

  it('prints NDJSON only with --json', async () => {
    const result = await runCli(['chat', 'quartermaster', '--offline', '--json'], { home: home.path, input: 'budget\nexit\n' });
    expect(result.code).toBe(0);
    const events = result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string });
    expect(events.at(-1)?.type).toBe('turn-end');
  });

  it('cancels the running turn on Ctrl-C, keeps its events, and goes on', async () => {
    requests = [];
    const cli = startCli(['chat', 'quartermaster', '--model', 'ollama/slow', '--new-session', 'cancelled'], { home: home.path, env: { OLLAMA_BASE_URL: ollamaUrl } });
    const requested = nextRequest();
    cli.child.stdin?.write('Plan the budget.\n');
    await requested;
    cli.child.kill('SIGINT');
    await cli.waitForStdout('■ Turn cancelled.');
    cli.child.stdin?.end('quit\n');
    const result = await cli.result;
    expect(result.code).toBe(0);
    expect(requests[0]?.url).toBe('/api/chat');
    const shown = await runCli(['sessions', 'show', 'cancelled'], { home: home.path });
    expect(shown.stdout).toContain('You: Plan the budget.\n■ Turn cancelled.');
  });

  it('exits 130 on Ctrl-C at the prompt', async () => {
    const cli = startCli(['chat', 'quartermaster', '--offline'], { home: home.path });
    await cli.waitForStdout('Ctrl-C cancels a running turn.');
    cli.child.kill('SIGINT');
    expect((await cli.result).code).toBe(130);
  });
});

describe('syndicate run, cancelled', () => {
  it('exits 130 when Ctrl-C cancels the turn', async () => {
    const requested = nextRequest();
    const cli = startCli(['run', 'quartermaster', 'Plan the budget.', '--model', 'ollama/slow'], { home: home.path, env: { OLLAMA_BASE_URL: ollamaUrl } });
    cli.child.stdin?.end();
    await requested;
    cli.child.kill('SIGINT');
    const result = await cli.result;
    expect(result.code).toBe(130);
    expect(result.stdout).toContain('■ Turn cancelled.');
    expect(result.stdout).toMatch(/Session \S+ stored in /);
  });
});
