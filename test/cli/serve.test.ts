import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, startCli, tempDir, type LiveCli } from './cli.js';

// `syndicate serve` as a process (the built CLI): it serves the bundled examples by default,
// prints its URL, answers health checks, and exits cleanly on SIGTERM.

let home: { path: string; remove: () => void };
let live: LiveCli | undefined;

beforeEach(() => {
  home = tempDir('serve');
});

afterEach(async () => {
  if (live && live.child.exitCode === null) {
    live.child.kill('SIGKILL');
    await live.result;
  }
  live = undefined;
  home.remove();
});

function urlIn(stdout: string): string {
  const match = /Syndicate server at (http:\/\/\S+)/.exec(stdout);
  if (!match) throw new Error(`no URL in: ${stdout}`);
  return match[1]!;
}

describe('syndicate serve', () => {
  it('serves the bundled examples with no config file, and stops on SIGTERM', async () => {
    let stdout = '';
    live = startCli(['serve', '--offline', '--port', '0'], { home: home.path });
    live.child.stdout!.on('data', (chunk: string) => (stdout += chunk));
    await live.waitForStdout('MCP:');
    const url = urlIn(stdout);
    expect(stdout).toContain('council');
    expect(await (await fetch(`${url}/healthz`)).json()).toStrictEqual({ status: 'ok' });
    expect((await fetch(`${url}/readyz`)).status).toBe(200);

    live.child.kill('SIGTERM');
    const result = await live.result;
    expect(result.code).toBe(0);
  });

  it('gives the admin token API access', async () => {
    let stdout = '';
    live = startCli(['serve', '--offline', '--port', '0'], { home: home.path, env: { SYNDICATE_ADMIN_TOKEN: 'a-long-admin-token-for-tests' } });
    live.child.stdout!.on('data', (chunk: string) => (stdout += chunk));
    await live.waitForStdout('MCP:');
    const response = await fetch(`${urlIn(stdout)}/api/v1/syndicates`, { headers: { authorization: 'Bearer a-long-admin-token-for-tests' } });
    expect(response.status).toBe(200);
    live.child.kill('SIGINT');
    expect((await live.result).code).toBe(0);
  });

  it('on first start prints a one-time sign-in link for the admin, which signs in once', async () => {
    let stdout = '';
    live = startCli(['serve', '--offline', '--port', '0'], { home: home.path });
    live.child.stdout!.on('data', (chunk: string) => (stdout += chunk));
    await live.waitForStdout('valid for 24 hours');
    const link = /Sign in: (http:\/\/\S+)\/#sign-in=(\S+)/.exec(stdout);
    expect(link?.[1]).toBe(urlIn(stdout));
    const signIn = () => fetch(`${link![1]}/api/v1/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: link![2] }) });
    const first = await signIn();
    expect(first.status).toBe(200);
    expect(((await first.json()) as { user: { role: string } }).user.role).toBe('admin');
    expect((await signIn()).status).toBe(401);
    live.child.kill('SIGTERM');
    expect((await live.result).code).toBe(0);
  });

  it('streams a council turn offline: both delegations end and the answer arrives', async () => {
    let stdout = '';
    live = startCli(['serve', '--offline', '--port', '0'], { home: home.path, env: { SYNDICATE_ADMIN_TOKEN: 'a-long-admin-token-for-tests' } });
    live.child.stdout!.on('data', (chunk: string) => (stdout += chunk));
    await live.waitForStdout('MCP:');
    const response = await fetch(`${urlIn(stdout)}/api/v1/turns`, {
      method: 'POST',
      headers: { authorization: 'Bearer a-long-admin-token-for-tests', 'content-type': 'application/json' },
      body: JSON.stringify({ syndicate: 'council', message: 'Should we adopt a four-day week?' }),
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = (await response.text())
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice('data: '.length)) as { type: string; status?: string; output?: string; isError?: boolean });
    const delegations = events.filter((event) => event.type === 'delegation-end');
    expect(delegations.length).toBeGreaterThanOrEqual(2);
    expect(delegations.every((event) => event.isError === false)).toBe(true);
    const end = events.at(-1)!;
    expect(end).toMatchObject({ type: 'turn-end', status: 'completed' });
    expect(end.output).not.toBe('');
    live.child.kill('SIGTERM');
    expect((await live.result).code).toBe(0);
  });

  it('refuses a non-loopback host without an admin, with the fix', async () => {
    const result = await runCli(['serve', '--offline', '--port', '0', '--host', '0.0.0.0'], { home: home.path });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('SYNDICATE_ADMIN_TOKEN');
  });

  it('refuses a path that does not exist, naming it', async () => {
    const result = await runCli(['serve', 'no-such-folder', '--offline', '--port', '0'], { home: home.path });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('no-such-folder');
  });
});
