import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { readOwnEvents, type OwnMessage } from '../server/turns/harness.js';
import { runCli, startCli, tempDir, type LiveCli } from './cli.js';
import { waitingRoom } from './serveFile.js';

// `syndicate serve` as a process (the built CLI): it serves the bundled examples by default,
// prints its URL, answers health checks, and shuts down gracefully on SIGTERM.

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

  it('listens on 127.0.0.1:7700 unless told otherwise, and lets running turns finish for 10 s on SIGTERM', async () => {
    const result = await runCli(['serve', '--help'], { home: home.path });

    expect(result.stdout).toMatch(/--host <host>\s+address to listen on \(default: "127\.0\.0\.1"\)/);
    expect(result.stdout).toMatch(/--port <port>[^\n]*\(default: "7700"\)/);
    expect(result.stdout).toMatch(/--grace <duration>[\s\S]*?\(default: "10s"\)/);
  });

  it('on SIGTERM gives a running turn the grace period, then cancels it, stored as interrupted by the shutdown', async () => {
    const token = 'a-long-admin-token-for-tests';
    const db = join(home.path, 'serve.db');
    let stdout = '';
    live = startCli(['serve', waitingRoom(home.path), '--offline', '--port', '0', '--db', db, '--grace', '200ms'], { home: home.path, env: { SYNDICATE_ADMIN_TOKEN: token } });
    live.child.stdout!.on('data', (chunk: string) => (stdout += chunk));
    await live.waitForStdout('MCP:');
    const turn = await fetch(`${urlIn(stdout)}/api/v1/turns`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ syndicate: 'waiting-room', message: 'Please wait' }),
    });
    const events = readOwnEvents(turn);
    // Read by hand: a for-await that breaks would close the stream.
    for (let next = await events.next(); next.value?.data.type !== 'tool-call'; next = await events.next()) {
      if (next.done) throw new Error('the turn ended before it called the tool that waits');
    }

    live.child.kill('SIGTERM');
    const rest: OwnMessage[] = [];
    for await (const message of events) rest.push(message);
    const result = await live.result;

    const end = { type: 'turn-end', status: 'cancelled', error: expect.stringContaining('interrupted: the server shut down, and the turn did not finish within the 200 ms grace period') };
    expect(rest.at(-1)?.data).toMatchObject(end);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('0 turn(s) finished, 1 interrupted.');
    const store = openSqliteStore(db);
    try {
      expect((await store.readEvents(turn.headers.get('x-session-id')!)).at(-1)?.event).toMatchObject(end);
    } finally {
      await store.close();
    }
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
