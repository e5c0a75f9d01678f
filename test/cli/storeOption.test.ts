import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, startCli, tempDir, type LiveCli } from './cli.js';

// Every command with a store names it the same way: --db, else SYNDICATE_DB, else the default;
// a SQLite path, sqlite:<path>, or a postgres:// URL, which is never taken as a path.

let home: ReturnType<typeof tempDir>;
let live: LiveCli | undefined;

beforeEach(() => {
  home = tempDir('store-option');
});

afterEach(async () => {
  if (live && live.child.exitCode === null) {
    live.child.kill('SIGKILL');
    await live.result;
  }
  live = undefined;
  home.remove();
});

const POSTGRES_URL = 'postgres://syndicate@127.0.0.1:9/syndicate';

/** Every command that has a store, with the arguments it needs besides the store. */
const COMMANDS: ReadonlyArray<readonly string[]> = [
  ['run', 'council', 'hello', '--offline'],
  ['chat', 'council', '--offline'],
  ['serve-a2a', 'triage', '--offline', '--port', '0'],
  ['mcp', 'council', '--offline'],
  ['sessions', 'list'],
  ['sessions', 'show', 'some-session'],
  ['sessions', 'delete', 'some-session'],
  ['usage'],
  ['memory', 'silos'],
  ['memory', 'list', '--silo', 'concierge--local'],
  ['memory', 'show', 'fact-1', '--silo', 'concierge--local'],
  ['memory', 'dupes', '--silo', 'concierge--local'],
  ['memory', 'delete', 'fact-1', '--silo', 'concierge--local'],
  ['memory', 'export', '--silo', 'concierge--local', '--bundle', 'notes', '--out', 'notes.zip'],
  ['memory', 'reembed', '--silo', 'concierge--local', '--embedding', 'local'],
  ['memory', 'purge', '--silo', 'concierge--local'],
];

function nothingCreated(): void {
  // Taken as a path, the URL would have made a folder named 'postgres:' (or the default database).
  expect(readdirSync(home.path)).toEqual([]);
}

describe('a postgres:// store is never taken as a path', () => {
  it.each(COMMANDS.map((args) => [args.slice(0, 2).join(' '), args] as const))('%s --db postgres://… opens it as PostgreSQL and creates nothing', async (_name, args) => {
    const result = await runCli([...args, '--db', POSTGRES_URL], { home: home.path, input: 'exit\n' });

    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('cannot connect to PostgreSQL at 127.0.0.1:9');
    nothingCreated();
  });

  it.each(COMMANDS.map((args) => [args.slice(0, 2).join(' '), args] as const))('%s with SYNDICATE_DB=postgres://… opens it as PostgreSQL and creates nothing', async (_name, args) => {
    const result = await runCli(args, { home: home.path, env: { SYNDICATE_DB: POSTGRES_URL }, input: 'exit\n' });

    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('cannot connect to PostgreSQL at 127.0.0.1:9');
    nothingCreated();
  });

  it('refuses a store URL of an unknown kind, naming the forms it takes, with exit code 2', async () => {
    const result = await runCli(['sessions', 'list', '--db', 'mysql://127.0.0.1/db'], { home: home.path });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--db "mysql://127.0.0.1/db" is a mysql: URL');
    expect(result.stderr).toContain('a SQLite file path, sqlite:<path>, or postgres://');
    nothingCreated();
  });
});

describe('SYNDICATE_DB names the store of every command', () => {
  const storeIn = (): string => join(home.path, 'elsewhere', 'chosen.db');

  it('run stores its session in SYNDICATE_DB, not in the default database', async () => {
    const result = await runCli(['run', 'council', 'hello', '--offline'], { home: home.path, env: { SYNDICATE_DB: storeIn() } });

    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`stored in ${storeIn().replace(/[.]/g, '\\.')}\\n`));
    expect(existsSync(storeIn())).toBe(true);
    expect(existsSync(join(home.path, 'syndicate.db'))).toBe(false);
  });

  it('chat stores its session in SYNDICATE_DB', async () => {
    const result = await runCli(['chat', 'council', '--offline'], { home: home.path, env: { SYNDICATE_DB: storeIn() }, input: 'hello\nexit\n' });

    expect(result.code).toBe(0);
    expect(existsSync(storeIn())).toBe(true);
    expect(existsSync(join(home.path, 'syndicate.db'))).toBe(false);
  });

  it('sessions, usage and memory read SYNDICATE_DB, and --db wins over it', async () => {
    await runCli(['run', 'council', 'hello', '--offline', '--new-session', 'kept'], { home: home.path, env: { SYNDICATE_DB: storeIn() } });
    const env = { SYNDICATE_DB: storeIn() };

    const sessions = await runCli(['sessions', 'list', '--json'], { home: home.path, env });
    const usage = await runCli(['usage', '--json'], { home: home.path, env });
    const memory = await runCli(['memory', 'silos'], { home: home.path, env });
    const overridden = await runCli(['sessions', 'list', '--db', join(home.path, 'other.db')], { home: home.path, env });

    expect((JSON.parse(sessions.stdout) as Array<{ id: string }>).map((session) => session.id)).toEqual(['kept']);
    expect((JSON.parse(usage.stdout) as { db: string }).db).toBe(storeIn());
    expect(memory.stdout).toBe(`No memory in ${storeIn()}: no silo holds facts or documents yet.\n`);
    expect(overridden.stdout).toBe(`No sessions in ${join(home.path, 'other.db')}.\n`);
  });

  it('serve-a2a opens SYNDICATE_DB', async () => {
    live = startCli(['serve-a2a', 'triage', '--offline', '--port', '0'], { home: home.path, env: { SYNDICATE_DB: storeIn() } });
    await live.waitForStdout('Serving A2A at');

    expect(existsSync(storeIn())).toBe(true);
    expect(existsSync(join(home.path, 'syndicate.db'))).toBe(false);
    live.child.kill('SIGTERM');
    await live.result;
  });

  it('mcp opens SYNDICATE_DB', async () => {
    live = startCli(['mcp', 'council', '--offline', '--http', '127.0.0.1:0'], { home: home.path, env: { SYNDICATE_DB: storeIn() } });
    await live.waitForStdout('Press Ctrl-C');

    expect(existsSync(storeIn())).toBe(true);
    expect(existsSync(join(home.path, 'syndicate.db'))).toBe(false);
    live.child.kill('SIGINT');
    await live.result;
  });
});

describe('--db sqlite:<path>', () => {
  it('stores the session in the SQLite file at that path', async () => {
    const dbPath = join(home.path, 'prefixed.db');

    const result = await runCli(['run', 'council', 'hello', '--offline', '--db', `sqlite:${dbPath}`], { home: home.path });
    const sessions = await runCli(['sessions', 'list', '--json', '--db', dbPath], { home: home.path });

    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`stored in ${dbPath}\n`);
    expect(JSON.parse(sessions.stdout)).toHaveLength(1);
  });
});
