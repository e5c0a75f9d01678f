import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { tempDbPath } from './fixtures.js';

const child = fileURLToPath(new URL('./fixtures/turn-until-killed.mjs', import.meta.url));
const hangsOnFirstCall = fileURLToPath(new URL('./fixtures/model-hangs-on-first-call.mjs', import.meta.url));
const built = fileURLToPath(new URL('../../dist/runtime/runTurn.js', import.meta.url));

function runUntilHanging(dbPath: string, script = child): Promise<void> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [script, dbPath], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    proc.stderr.on('data', (chunk) => (stderr += chunk));
    proc.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('HANGING')) proc.kill('SIGKILL');
    });
    proc.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`child ended without hanging: ${stderr}`))));
  });
}

describe('a process killed mid-turn', () => {
  const dirs: string[] = [];
  const dbPathForTest = (): string => {
    const path = tempDbPath();
    dirs.push(dirname(path));
    return path;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('leaves the database readable with every finished step intact', async () => {
    if (!existsSync(built)) throw new Error('dist/ is missing: run `npm run build` (npm test does) before this test');
    const dbPath = dbPathForTest();

    await runUntilHanging(dbPath);

    const raw = new Database(dbPath, { readonly: true });
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    raw.close();
    const store = openSqliteStore(dbPath);
    const events = (await store.readEvents('crash')).map((e) => e.event);
    const types = events.map((e) => `${e.agent}:${e.type}`);
    expect(types).toEqual(expect.arrayContaining(['Chief:turn-start', 'Chief:delegation-end', 'Helper:message', 'Chief:tool-result']));
    expect(events.find((e) => e.type === 'tool-result')).toMatchObject({ tool: 'calculator', output: { result: 42 } });
    expect(types).not.toContain('Chief:turn-end');
    await store.close();
  });

  it("keeps the user's message when it dies during the first model call", async () => {
    const dbPath = dbPathForTest();

    await runUntilHanging(dbPath, hangsOnFirstCall);

    const store = openSqliteStore(dbPath);
    try {
      const events = (await store.readEvents('first-call')).map((e) => e.event);
      expect(events).toMatchObject([{ type: 'turn-start', agent: 'Chief', input: 'remember this question' }]);
    } finally {
      await store.close();
    }
  });
});
