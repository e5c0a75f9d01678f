import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../support/scratchDir.js';

const CHILD = new URL('./fixtures/open-when-told.mjs', import.meta.url).pathname;

interface Outcome {
  code: number | null;
  output: string;
}

/** Starts `count` processes that open `dbPath` together once every one of them is loaded. */
async function openTogether(dbPath: string, count: number): Promise<Outcome[]> {
  const goFile = `${dbPath}.go`;
  const children = Array.from({ length: count }, () => spawn(process.execPath, [CHILD, dbPath, goFile], { stdio: ['ignore', 'pipe', 'inherit'] }));
  const outputs = children.map(() => '');
  const ready = children.map(
    (child, index) =>
      new Promise<void>((resolve) => {
        child.stdout.on('data', (chunk: Buffer) => {
          outputs[index] += chunk.toString();
          if (outputs[index]!.includes('ready')) resolve();
        });
      }),
  );
  const ended = children.map((child) => new Promise<number | null>((resolve) => child.on('exit', resolve)));
  await Promise.all(ready);
  writeFileSync(goFile, '');
  const codes = await Promise.all(ended);
  return codes.map((code, index) => ({ code, output: outputs[index]!.replace('ready\n', '') }));
}

describe('opening one new SQLite file from several processes at once', () => {
  // Two processes switching one new file to WAL can deadlock on the lock upgrade, which SQLite
  // answers with SQLITE_BUSY at once, not after the busy timeout (seen in 2 of 90 opens here).
  it('opens it in every process, none answered "database is locked"', { timeout: 60_000 }, async () => {
    const dir = scratchDir('open-race');
    const outcomes: Outcome[] = [];
    for (let round = 0; round < 15; round += 1) outcomes.push(...(await openTogether(join(dir, `race-${round}.db`), 6)));
    expect(outcomes.filter((outcome) => outcome.code !== 0)).toEqual([]);
  });
});
