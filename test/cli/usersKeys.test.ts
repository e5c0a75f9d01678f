import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './cli.js';

// `syndicate users` and `syndicate keys` against a real SQLite store, as the built CLI.

let home: { path: string; remove: () => void };
let db: string;

beforeEach(() => {
  home = tempDir('users');
  db = join(home.path, 'store.db');
});

afterEach(() => home.remove());

const cli = (...args: string[]) => runCli([...args, '--db', db], { home: home.path });

describe('syndicate users', () => {
  it('adds a user who is then listed with their role', async () => {
    expect((await cli('users', 'add', 'alice', '--role', 'viewer')).code).toBe(0);
    const listed = await cli('users', 'list', '--json');
    expect(JSON.parse(listed.stdout)).toMatchObject([{ id: 'alice', role: 'viewer' }]);
  });

  it('refuses an unknown role, naming the roles', async () => {
    const result = await cli('users', 'add', 'alice', '--role', 'owner');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('viewer, member, admin');
  });

  it('refuses a user id that exists', async () => {
    await cli('users', 'add', 'alice');
    const result = await cli('users', 'add', 'alice');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('exists already');
  });

  it('removes a user, but not the last admin', async () => {
    await cli('users', 'add', 'root', '--role', 'admin');
    await cli('users', 'add', 'alice');
    expect((await cli('users', 'remove', 'alice')).code).toBe(0);
    const refused = await cli('users', 'remove', 'root');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('last admin');
    expect(JSON.parse((await cli('users', 'list', '--json')).stdout)).toMatchObject([{ id: 'root' }]);
  });
});

describe('syndicate keys', () => {
  it('creates a key shown once, listed afterwards without its secret', async () => {
    await cli('users', 'add', 'alice');
    const created = await cli('keys', 'create', '--user', 'alice', '--name', 'laptop', '--json');
    expect(created.code).toBe(0);
    const key = JSON.parse(created.stdout) as { id: string; key: string };
    expect(key.key).toMatch(/^sk_syn_/);

    const listed = await cli('keys', 'list', '--user', 'alice', '--json');

    expect(JSON.parse(listed.stdout)).toMatchObject([{ id: key.id, name: 'laptop', userId: 'alice', lastUsedAt: null, revokedAt: null }]);
    expect(listed.stdout).not.toContain(key.key);
  });

  it('refuses a key for an unknown user, saying how to add them', async () => {
    const result = await cli('keys', 'create', '--user', 'nobody');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('syndicate users add nobody');
  });

  it('revokes a key, which is then listed as revoked', async () => {
    await cli('users', 'add', 'alice');
    const key = JSON.parse((await cli('keys', 'create', '--user', 'alice', '--json')).stdout) as { id: string };
    expect((await cli('keys', 'revoke', key.id)).code).toBe(0);
    const [listed] = JSON.parse((await cli('keys', 'list', '--json')).stdout) as Array<{ revokedAt: number | null }>;
    expect(listed!.revokedAt).toEqual(expect.any(Number));
  });
});
